//! Colour solutions in terminal colours (`--color`): each cell's character on its colour, as
//! a 24-bit ANSI background, after a legend that names the colours.

use std::io::{self, Write};

use nonoenum::{Color, ColorGrid};

/// The escape that ends a run of colour.
const RESET: &str = "\x1b[0m";

/// The escape that draws on `color`'s background, with black or white text, whichever reads
/// better on it.
fn paint(color: &Color) -> String {
    let [r, g, b] = color.rgb;
    let luma = 299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b);
    let fg = if luma > 128_000 { "30" } else { "97" };
    format!("\x1b[{fg};48;2;{r};{g};{b}m")
}

/// One line: each colour's character on its colour, then its name.
pub(crate) fn write_legend(out: &mut (impl Write + ?Sized), colors: &[Color]) -> io::Result<()> {
    let items: Vec<String> = colors
        .iter()
        .map(|c| format!("{}{}{RESET} {}", paint(c), c.ch, c.name))
        .collect();
    writeln!(out, "{}", items.join("  "))
}

/// The solution's rows, each cell its character on its colour.
pub(crate) fn write_colored(
    out: &mut (impl Write + ?Sized),
    grid: &ColorGrid,
    colors: &[Color],
) -> io::Result<()> {
    let painted: Vec<String> = colors.iter().map(paint).collect();
    let cells = grid.to_colors();
    for row in cells.chunks(grid.width().max(1)) {
        let mut line = String::new();
        let mut current = None;
        for &cell in row {
            let index = usize::from(cell);
            let (Some(color), Some(escape)) = (colors.get(index), painted.get(index)) else {
                continue;
            };
            if current != Some(index) {
                line.push_str(escape);
                current = Some(index);
            }
            line.push(color.ch);
        }
        line.push_str(RESET);
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_readable_on_light_and_dark_colours() {
        assert!(paint(&Color::new("white", [255; 3], '.')).starts_with("\x1b[30;"));
        assert!(paint(&Color::new("blue", [0, 0, 255], '@')).starts_with("\x1b[97;"));
        let mut legend = Vec::new();
        write_legend(&mut legend, &[Color::new("red", [255, 0, 0], '*')]).expect("write");
        let legend = String::from_utf8(legend).expect("UTF-8");
        assert_eq!(legend, "\x1b[97;48;2;255;0;0m*\x1b[0m red\n");
    }
}
