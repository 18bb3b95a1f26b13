//! Olšák `.g` format tests: colours, givens, titles and comments read back, and the errors of
//! bad files, each naming its line.

use super::*;

const SMALL: &str = "Small\nby me\n#d\n   0:   #FFFFFF   white\n   r:*  #FF0000   red\n   \
                     u:@  blue\n: rows\n1r 1u\n\n: columns\n1r\n1u\n";

#[test]
fn reads_colours_and_empty_lines() {
    let AnyPuzzle::Color(p) = parse(SMALL).unwrap() else {
        panic!("colour puzzle expected")
    };
    assert_eq!(p.title.as_deref(), Some("Small"));
    assert_eq!(p.colors.len(), 3);
    assert_eq!(p.colors[1].rgb, [255, 0, 0]);
    assert_eq!(p.colors[2].rgb, [0, 0, 255]);
    assert_eq!(p.row_clues.len(), 2);
    assert!(p.row_clues[1].blocks().is_empty());
    assert_eq!(p.row_clues[0].blocks()[1], Block { len: 1, color: 2 });
    // Round trip through the writer.
    assert_eq!(parse(&write(&p)).unwrap(), AnyPuzzle::Color(p));
}

#[test]
fn givens_section_round_trips_and_others_stop_before_it() {
    let text = format!("{SMALL}: givens\n# decisions\n1 1 r\n\n1 2 0\n:\n1 1 u\n");
    let AnyPuzzle::Color(p) = parse(&text).unwrap() else {
        panic!("colour puzzle expected")
    };
    let givens: Vec<(usize, usize, u8)> =
        p.givens.iter().map(|g| (g.row, g.col, g.color)).collect();
    assert_eq!(givens, [(0, 0, 1), (0, 1, 0)]);
    let written = write(&p);
    assert!(written.ends_with(": givens\n1 1 a\n1 2 0\n"), "{written}");
    assert_eq!(parse(&written).unwrap(), AnyPuzzle::Color(p));
    // Any other third `:` line still ends the puzzle.
    let AnyPuzzle::Color(p) = parse(&format!("{SMALL}: end\n1 1 r\n")).unwrap() else {
        panic!("colour puzzle expected")
    };
    assert!(p.givens.is_empty());
}

/// A given may name a declared colour that no clue uses (`convert --to g` writes one for
/// a black given in a puzzle without blocks): the colour stays, and there is no solution.
#[test]
fn a_given_keeps_a_colour_no_clue_uses() {
    let text = "#d\n 0: #FFFFFF white\n a:# #000000 black\n: rows\n\n: columns\n\n\
                : givens\n1 1 a\n";
    let puzzle = parse(text).expect("reads");
    let AnyPuzzle::Bw(bw) = &puzzle else {
        panic!("one colour is black and white: {puzzle:?}")
    };
    assert_eq!(bw.givens.len(), 1);
    let outcome = (puzzle.solver(Default::default()))
        .run(|_| crate::flow::Flow::Continue)
        .expect("searches");
    assert_eq!((outcome.solutions, outcome.exhausted), (0, true));
    let undeclared = text.replace("1 1 a", "1 1 b");
    let err = parse(&undeclared).expect_err("`b` is not declared");
    assert!(
        err.to_string()
            .contains("not the IN character of a declared colour")
    );
}

#[test]
fn bad_givens_name_their_line() {
    let cases = [
        ("1 1 q\n", "not the IN character"),
        ("3 1 r\n", "row 3 is outside the 2 x 2 grid"),
        ("1 1\n", "expected a given `ROW COL C`"),
    ];
    for (given, message) in cases {
        let err = parse(&format!("{SMALL}: givens\n\n{given}")).unwrap_err();
        assert_eq!(err.line, 15, "{err}");
        assert!(err.to_string().contains(message), "{err}");
    }
}

/// A title or comment that starts with `:` or `#`, or holds line breaks, is written so that
/// it reads back (`:` kept, leading `#` dropped, line breaks as spaces).
#[test]
fn titles_and_comments_read_back() {
    let AnyPuzzle::Color(mut p) = parse(SMALL).unwrap() else {
        panic!("colour puzzle expected")
    };
    let cases = [
        (": rows", ": rows"),
        (":", ":"),
        ("# not a comment", "not a comment"),
        ("#d", "d"),
        ("  ## : both", ": both"),
        ("two\nlines\r\n: three", "two lines  : three"),
        ("#", "nonoenum puzzle"),
    ];
    for (title, read) in cases {
        p.title = Some(title.into());
        p.metadata = vec![("comment".into(), title.into())];
        let written = write(&p);
        let AnyPuzzle::Color(back) = parse(&written).expect(&written) else {
            panic!("colour puzzle expected")
        };
        assert_eq!(back.title.as_deref(), Some(read), "{written}");
        assert_eq!(
            (&back.row_clues, &back.col_clues),
            (&p.row_clues, &p.col_clues)
        );
        let comments: Vec<&str> = back.metadata.iter().map(|(_, v)| v.as_str()).collect();
        let expected: &[&str] = if title == "#" { &[] } else { &[read] };
        assert_eq!(comments, expected, "{written}");
    }
}

proptest::proptest! {
    #[test]
    fn any_title_reads_back(title in "[:# a\n\r]{0,3}[:#a-z \n]{0,12}") {
        let AnyPuzzle::Color(mut p) = parse(SMALL).unwrap() else {
            panic!("colour puzzle expected")
        };
        p.title = Some(title.clone());
        let AnyPuzzle::Color(back) = parse(&write(&p)).unwrap() else {
            panic!("colour puzzle expected")
        };
        let expected = match header_line(&title) {
            t if t.is_empty() => "nonoenum puzzle".to_string(),
            t => t.trim().to_string(),
        };
        proptest::prop_assert_eq!(back.title, Some(expected));
        proptest::prop_assert_eq!(back.row_clues, p.row_clues);
        proptest::prop_assert_eq!(back.col_clues, p.col_clues);
    }
}

/// Two givens of one cell that disagree name both lines; too many colours name the line of
/// the first colour past the limit.
#[test]
fn givens_that_disagree_and_too_many_colours_name_their_lines() {
    let err = parse(&format!("{SMALL}: givens\n1 1 r\n\n1 1 u\n")).unwrap_err();
    let expected = "line 16: row 1, column 1 is given as blue here but as red on line 14";
    assert_eq!(err.to_string(), expected);
    let chars: Vec<char> = ('a'..='z')
        .chain('A'..='Z')
        .chain("!$%&*+=?@^_~".chars())
        .collect();
    let declared: String = chars
        .iter()
        .map(|c| format!(" {c}:{c} #102030\n"))
        .collect();
    let blocks: Vec<String> = chars.iter().map(|c| format!("1{c}")).collect();
    let text = format!("t\n#d\n{declared}: rows\n{}\n: columns\n", blocks.join(" "));
    assert_eq!(chars.len(), 64);
    let err = parse(&text).unwrap_err();
    assert_eq!(err.line, 66, "{err}");
    assert!(
        err.to_string()
            .ends_with("more than 63 colours besides the background")
    );
}

#[test]
fn plain_g_files_are_black_and_white() {
    let text = "Cat\n: rows\n1\n1 1\n:\n2\n0\n1\n: end\nignored";
    let AnyPuzzle::Bw(p) = parse(text).unwrap() else {
        panic!("black and white expected")
    };
    assert_eq!(p.height(), 2);
    assert_eq!(p.width(), 3);
}

#[test]
fn errors_name_the_line() {
    let cases = [
        (
            SMALL.replace("1r 1u", "1r 1q"),
            8,
            "colour `q` is not declared",
        ),
        (SMALL.replace("1r 1u", "1r 1uu"), 8, "is not a block"),
        (SMALL.replace("1r 1u", "1r -1u"), 8, "`-1u` is not a block"),
        (SMALL.replace("1r 1u", "r 1u"), 8, "needs a length first"),
        (
            SMALL.replace("u:@  blue", "u:@  bluish"),
            6,
            "unknown colour",
        ),
        (SMALL.replace("u:@  blue", "u:@  red/blue"), 6, "triangle"),
        (
            SMALL.replace(": columns\n", ""),
            12,
            "missing the `: columns`",
        ),
        (
            SMALL.replace("\n1u\n", "\n2u\n"),
            12,
            "row clues fill 1 cell of blue",
        ),
    ];
    for (text, line, message) in cases {
        let err = parse(&text).unwrap_err();
        assert_eq!(err.line, line, "{err}");
        assert!(err.to_string().contains(message), "{err}");
    }
}
