//! Benchmarks of whole solves through the library: read a puzzle file, then `find(2)` (what
//! `nonoenum solve` does) or `count()`, with one thread and with one per core.
//!
//! By default the puzzles are the bundled ones (`puzzles/`, see puzzles/EXPECTED.md), so that a
//! clone measures something. `NONOENUM_CORPUS=DIR` adds the cases of a larger corpus laid out
//! as the shared one (`NONOENUM_CORPUS=../shared/puzzles`): survey puzzles, counted puzzles,
//! and the `learn/` groups, which time the learning search alone (one thread) and racing the
//! probing search (all cores) on puzzles that the probing search finds hard. Before timing,
//! each case is solved once and its answer checked: the number of solutions, whether the
//! search ran to the end, and that every solution found satisfies every clue.
//!
//! Run with `cargo bench --bench solve` (add a filter such as `-- heart` to run one case).

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_main};
use nonoenum::format::read_puzzles;
use nonoenum::{Cell, Engine, Grid, Outcome, Probing, Puzzle, Solver, SolverOptions};

/// The bundled puzzles.
const BUNDLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

/// The environment variable that names a larger corpus, laid out as the shared one.
const CORPUS_VAR: &str = "NONOENUM_CORPUS";

/// What a case runs, and the answer it must give.
#[derive(Clone, Copy, Debug)]
enum Task {
    /// `find(2)`: `found` solutions (1 for a unique puzzle, 2 for one with several).
    FindTwo { found: u64 },
    /// `count()`: exactly `solutions`.
    Count { solutions: u64 },
}

impl Task {
    fn name(self) -> &'static str {
        match self {
            Task::FindTwo { .. } => "find2",
            Task::Count { .. } => "count",
        }
    }

    /// Runs the task once.
    fn run(self, puzzle: &Puzzle, options: &SolverOptions) -> (Vec<Grid>, Outcome) {
        let solver = Solver::new(puzzle, options.clone());
        match self {
            Task::FindTwo { .. } => solver.find(2).expect("the solver starts"),
            Task::Count { .. } => (Vec::new(), solver.count().expect("the solver starts")),
        }
    }

    /// Checks an answer against the expected one.
    fn check(self, name: &str, puzzle: &Puzzle, (grids, outcome): &(Vec<Grid>, Outcome)) {
        match self {
            Task::FindTwo { found } => {
                assert_eq!(grids.len() as u64, found, "{name}: solutions found");
                // Fewer than two found means the whole tree was searched.
                assert_eq!(outcome.exhausted, found < 2, "{name}: exhausted");
            }
            Task::Count { solutions } => {
                assert_eq!(outcome.solutions, solutions, "{name}: solution count");
                assert!(outcome.exhausted, "{name}: the count must be complete");
            }
        }
        for grid in grids {
            let cells: Vec<bool> = (0..grid.height())
                .flat_map(|r| (0..grid.width()).map(move |c| (r, c)))
                .map(|(r, c)| match grid.cell(r, c) {
                    Cell::Filled => true,
                    Cell::Empty => false,
                    Cell::Unknown => panic!("{name}: a solution has an unknown cell"),
                })
                .collect();
            puzzle
                .check_grid(&cells)
                .unwrap_or_else(|e| panic!("{name}: a solution breaks a clue: {e}"));
        }
    }
}

/// The cases of the bundled puzzles: a short name, the file (relative to [`BUNDLED`]) and the
/// task; their answers are those of puzzles/EXPECTED.md.
const BUNDLED_CASES: &[(&str, &str, Task)] = &[
    ("heart", "heart.txt", Task::FindTwo { found: 1 }),
    ("dancer", "dancer.non", Task::FindTwo { found: 1 }),
    ("ambiguous", "ambiguous.txt", Task::Count { solutions: 11 }),
    (
        "random-100x100",
        "large/random-100x100-d60-s1.txt",
        Task::Count { solutions: 8 },
    ),
];

/// The cases of the larger corpus: a short name, the file (relative to the corpus named by
/// [`CORPUS_VAR`]) and the task.
const CASES: &[(&str, &str, Task)] = &[
    (
        "webpbn-00001",
        "survey/bw-non/webpbn-00001.non",
        Task::FindTwo { found: 1 },
    ),
    (
        "webpbn-00006",
        "survey/bw-non/webpbn-00006.non",
        Task::FindTwo { found: 1 },
    ),
    (
        "webpbn-00027",
        "survey/bw-non/webpbn-00027.non",
        Task::FindTwo { found: 1 },
    ),
    (
        "webpbn-00436",
        "survey/bw-non/webpbn-00436.non",
        Task::FindTwo { found: 1 },
    ),
    (
        "webpbn-00803",
        "survey/bw-non/webpbn-00803.non",
        Task::FindTwo { found: 1 },
    ),
    (
        "gchq2015-no-givens",
        "counted/gchq2015-no-givens.txt",
        Task::Count { solutions: 4 },
    ),
    (
        "random-12x12-d0.35-s13",
        "counted/random-12x12-d0.35-s13.txt",
        Task::Count { solutions: 16 },
    ),
    (
        "hakank-nonunique",
        "counted/hakank-nonunique.txt",
        Task::Count { solutions: 43 },
    ),
    (
        "perm8",
        "counted/perm8.txt",
        Task::Count { solutions: 40320 },
    ),
];

/// Cases for the learning search, alone on one thread and racing the probing search on all
/// cores: puzzles the probing search takes seconds or more to decide.
const LEARN_CASES: &[(&str, &str, Task)] = &[
    (
        "webpbn-08098",
        "survey/bw-non/webpbn-08098.non",
        Task::FindTwo { found: 1 },
    ),
    (
        "webpbn-09892",
        "survey/bw-non/webpbn-09892.non",
        Task::FindTwo { found: 2 },
    ),
];

/// Reads the first puzzle of the file `relative` to `root`.
fn load(root: &Path, relative: &str) -> Puzzle {
    let path = root.join(relative);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut puzzles = read_puzzles(&bytes, None, Some(&path))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    puzzles.swap_remove(0)
}

/// Thread settings to measure: one thread, and one per core when there is more than one.
fn thread_settings() -> Vec<(usize, String)> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut settings = vec![(1, "threads=1".to_string())];
    if cores > 1 {
        settings.push((0, format!("threads=all({cores})")));
    }
    settings
}

/// Benchmarks each case under each of `settings` (a label and the options), in groups named
/// `PREFIX/CASE`, after solving it once and checking the answer.
fn bench_cases(
    c: &mut Criterion,
    prefix: &str,
    (root, cases): (&Path, &[(&str, &str, Task)]),
    settings: &[(String, SolverOptions)],
) {
    for &(name, file, task) in cases {
        let puzzle = load(root, file);
        let mut group = c.benchmark_group(format!("{prefix}/{name}"));
        group.sample_size(10);
        for (label, options) in settings {
            let answer = task.run(&puzzle, options);
            task.check(name, &puzzle, &answer);
            // Flat sampling: ten samples of the same number of solves (at least one each), so
            // slow cases need about ten solves, not the 55 of criterion's linear sampling.
            let once = answer.1.elapsed;
            group.sampling_mode(SamplingMode::Flat);
            group.measurement_time((once * 12).max(Duration::from_secs(2)));
            group.bench_with_input(
                BenchmarkId::new(task.name(), label),
                options,
                |b, options| b.iter(|| black_box(task.run(black_box(&puzzle), options))),
            );
        }
        group.finish();
    }
}

fn solves(c: &mut Criterion, corpus: Option<&Path>) {
    let settings: Vec<(String, SolverOptions)> = thread_settings()
        .into_iter()
        .map(|(threads, label)| {
            let options = SolverOptions {
                threads,
                probing: Probing::Adaptive,
                ordered: false,
                restarts: true,
                engine: Engine::Probe,
            };
            (label, options)
        })
        .collect();
    bench_cases(c, "solve", (Path::new(BUNDLED), BUNDLED_CASES), &settings);
    if let Some(corpus) = corpus {
        bench_cases(c, "solve", (corpus, CASES), &settings);
    }
}

fn learns(c: &mut Criterion, corpus: &Path) {
    let with = |engine, threads| SolverOptions {
        threads,
        engine,
        ..SolverOptions::default()
    };
    let settings = [
        ("learn,threads=1".to_string(), with(Engine::Learn, 1)),
        ("both,threads=all".to_string(), with(Engine::Both, 0)),
    ];
    bench_cases(c, "learn", (corpus, LEARN_CASES), &settings);
}

/// Runs the bundled cases, and those of the corpus that [`CORPUS_VAR`] names if it does; a
/// corpus named but missing is an error, not a silent skip.
fn benches() {
    let corpus = std::env::var_os(CORPUS_VAR).map(std::path::PathBuf::from);
    if let Some(corpus) = &corpus {
        assert!(
            corpus.is_dir(),
            "{CORPUS_VAR}={}: not a folder",
            corpus.display()
        );
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .configure_from_args();
    solves(&mut c, corpus.as_deref());
    if let Some(corpus) = &corpus {
        learns(&mut c, corpus);
    }
}

criterion_main!(benches);
