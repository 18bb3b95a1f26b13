//! The colours of a palette: one colour, the white and black of black and white, and the two
//! colours a black-and-white puzzle keeps when its file named others.

/// One colour of a palette. Index 0 of a palette is the background.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Color {
    /// The colour's name, as the file gives it (`black`, `red`, or `#FF0000`).
    pub name: String,
    /// Its red, green and blue components.
    pub rgb: [u8; 3],
    /// The character that stands for it in clues and text output (`.` for the background).
    pub ch: char,
}

impl Color {
    /// A colour with a name, components and a character.
    pub fn new(name: impl Into<String>, rgb: [u8; 3], ch: char) -> Self {
        Color {
            name: name.into(),
            rgb,
            ch,
        }
    }

    /// `#RRGGBB`.
    pub fn hex(&self) -> String {
        let [r, g, b] = self.rgb;
        format!("#{r:02X}{g:02X}{b:02X}")
    }
}

/// White background and black blocks, printed `.` and `#`.
pub fn bw_palette() -> Vec<Color> {
    vec![
        Color::new("white", [255, 255, 255], '.'),
        Color::new("black", [0, 0, 0], '#'),
    ]
}

/// The two colours of a black-and-white puzzle, the background first: white and black unless
/// its file named others (red blocks on white, say). Solving never looks at them; puzzle
/// files in colour formats and pictures of its solutions are drawn in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TwoColors(Option<Box<[Color; 2]>>);

impl TwoColors {
    /// These two colours, the background first; white and black are kept as the default.
    pub fn new(background: Color, ink: Color) -> Self {
        let plain = background.rgb == [255; 3] && ink.rgb == [0; 3];
        TwoColors((!plain).then(|| Box::new([background, ink])))
    }

    /// The two colours as a palette, the background first ([`bw_palette`] by default).
    pub fn palette(&self) -> Vec<Color> {
        match &self.0 {
            Some(colors) => colors.to_vec(),
            None => bw_palette(),
        }
    }
}
