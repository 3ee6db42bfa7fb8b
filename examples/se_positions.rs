//! Dev tool: first position of each technique on SE's paths of the given
//! files: `puzzle step name [difficulty] values candidates`.
use std::collections::BTreeMap;
use std::io::BufRead;
use sudoflow::grid::Grid;
use sudoflow::rating::se::{Board, Options, Rater};

fn main() {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut rater = Rater::new();
    for file in std::env::args().skip(1) {
        for line in std::io::BufReader::new(std::fs::File::open(&file).unwrap()).lines() {
            let line = line.unwrap();
            let puzzle = Grid::parse(&line[..81]).unwrap();
            let r = rater.rate(
                &puzzle,
                &Options {
                    keep_steps: true,
                    budget: Some(std::time::Duration::from_secs(5)),
                    ceiling: None,
                },
            );
            let Ok(r) = r else { continue };
            let mut board = Board::new(&puzzle);
            for (i, h) in r.steps.iter().enumerate() {
                let key = format!("{} [{:?}]", h.name, h.difficulty);
                if !seen.contains_key(&key) {
                    let values: String =
                        board.values().iter().map(|&v| (b'0' + v) as char).collect();
                    let cands: String = board
                        .candidates()
                        .iter()
                        .map(|&m| {
                            (1..=9)
                                .map(|v| {
                                    if m >> v & 1 != 0 {
                                        (b'0' + v) as char
                                    } else {
                                        '.'
                                    }
                                })
                                .collect::<String>()
                        })
                        .collect();
                    seen.insert(
                        key.clone(),
                        format!("{} {} {} {}", &line[..81], i + 1, values, cands),
                    );
                }
                h.apply(&mut board);
            }
        }
    }
    for (k, v) in seen {
        println!("{k} | {v}");
    }
}
