//! Fuzz target: [`sudoflow::checks::check_reader`] (its doc says what is checked).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoflow::checks::check_reader(data));
