//! The library's typed Arrow columns ([`sudoflow::output::table`]), filled
//! from this crate's result rows.

pub use sudoflow::output::table::Columns;

/// A result row that can put its CSV fields into a record.
pub trait Row {
    /// Clears `record`, then pushes the row's fields in header order.
    fn fill(&self, record: &mut csv::ByteRecord);
}

/// [`Columns::push_with`] for a [`Row`].
pub trait PushRow {
    /// Appends `row`.
    ///
    /// Errors: see [`Columns::push_with`].
    fn push(&mut self, row: &impl Row) -> Result<(), String>;
}

impl PushRow for Columns {
    fn push(&mut self, row: &impl Row) -> Result<(), String> {
        self.push_with(|record| row.fill(record))
    }
}
