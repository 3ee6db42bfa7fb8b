//! A picture as a list of shapes, which [`super::svg`] writes as SVG and
//! [`super::pdf`] as a PDF page: one drawing, two formats, the same
//! layout.
//!
//! Coordinates are in points (1/72 inch; an SVG user unit is taken as one
//! point), from the top-left corner, y downwards. Items are drawn in order,
//! later over earlier, and text keeps that order in the PDF's text layer.

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    /// Black.
    pub const BLACK: Color = Color(0, 0, 0);
    /// White.
    pub const WHITE: Color = Color(255, 255, 255);

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    /// Its colour.
    pub color: Color,
    /// Its width in points.
    pub width: f32,
    /// Dashes and gaps of this length in points; `None`: solid.
    pub dash: Option<f32>,
}

impl Stroke {
    /// A solid line.
    pub fn solid(color: Color, width: f32) -> Stroke {
        Stroke {
            color,
            width,
            dash: None,
        }
    }
}

/// Where a text's `x` is: at its start, middle or end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is where the text starts.
    Start,
    /// `x` is the middle of the text.
    Middle,
    /// `x` is where the text ends.
    End,
}

/// One line of text.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// Anchor point, x.
    pub x: f32,
    /// Baseline, y.
    pub y: f32,
    /// Font size in points.
    pub size: f32,
    /// The text (one line).
    pub text: String,
    /// Bold face.
    pub bold: bool,
    /// Colour.
    pub color: Color,
    /// What `x` is.
    pub anchor: Anchor,
    /// Drawn fully transparent: in the text layer (to copy or search) but
    /// not seen, e.g. the `.` of a blank cell so that a grid's rows copy
    /// as 9 cells.
    pub hidden: bool,
}

/// One shape.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A rectangle.
    Rect {
        /// Left.
        x: f32,
        /// Top.
        y: f32,
        /// Width.
        w: f32,
        /// Height.
        h: f32,
        /// Fill, if any.
        fill: Option<Color>,
        /// Outline, if any.
        stroke: Option<Stroke>,
    },
    /// A straight line.
    Line {
        /// Start.
        from: (f32, f32),
        /// End.
        to: (f32, f32),
        /// How it is drawn.
        stroke: Stroke,
    },
    /// A circle.
    Circle {
        /// Centre, x.
        cx: f32,
        /// Centre, y.
        cy: f32,
        /// Radius.
        r: f32,
        /// Fill, if any.
        fill: Option<Color>,
        /// Outline, if any.
        stroke: Option<Stroke>,
    },
    /// A quadratic Bezier curve (an arrow's shaft).
    Curve {
        /// Start.
        from: (f32, f32),
        /// Control point.
        ctrl: (f32, f32),
        /// End.
        to: (f32, f32),
        /// How it is drawn.
        stroke: Stroke,
    },
    /// A filled polygon (an arrow's head).
    Polygon {
        /// Its corners, in order.
        points: Vec<(f32, f32)>,
        /// Fill.
        fill: Color,
    },
    /// Text.
    Text(Text),
}

/// A picture: its size and shapes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// The shapes, drawn in order.
    pub items: Vec<Item>,
}

impl Scene {
    /// An empty picture of this size.
    pub fn new(width: f32, height: f32) -> Scene {
        Scene {
            width,
            height,
            items: Vec::new(),
        }
    }

    /// Adds a rectangle.
    pub fn rect(
        &mut self,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        self.items.push(Item::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke,
        });
    }

    /// Adds a line.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), stroke: Stroke) {
        self.items.push(Item::Line { from, to, stroke });
    }

    /// Adds a circle.
    pub fn circle(
        &mut self,
        cx: f32,
        cy: f32,
        r: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        self.items.push(Item::Circle {
            cx,
            cy,
            r,
            fill,
            stroke,
        });
    }

    /// Adds a visible text.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        text: impl Into<String>,
        bold: bool,
        color: Color,
        anchor: Anchor,
    ) {
        self.items.push(Item::Text(Text {
            x,
            y,
            size,
            text: text.into(),
            bold,
            color,
            anchor,
            hidden: false,
        }));
    }

    /// Adds an arrow from `from` to `to`, bent sideways by `bend` times
    /// its length (0: straight), with a head `head` points long.
    pub fn arrow(
        &mut self,
        from: (f32, f32),
        to: (f32, f32),
        bend: f32,
        stroke: Stroke,
        head: f32,
    ) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-3 {
            return;
        }
        let mid = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
        let ctrl = (mid.0 - dy * bend, mid.1 + dx * bend);
        // The head points along the curve's tangent at its end.
        let (tx, ty) = (to.0 - ctrl.0, to.1 - ctrl.1);
        let tl = (tx * tx + ty * ty).sqrt().max(1e-3);
        let (ux, uy) = (tx / tl, ty / tl);
        let base = (to.0 - ux * head, to.1 - uy * head);
        let half = head * 0.45;
        // The shaft stops inside the head, so that a thick or dashed line
        // does not show past its point.
        let end = (to.0 - ux * head * 0.6, to.1 - uy * head * 0.6);
        self.items.push(Item::Curve {
            from,
            ctrl,
            to: end,
            stroke,
        });
        self.items.push(Item::Polygon {
            points: vec![
                to,
                (base.0 - uy * half, base.1 + ux * half),
                (base.0 + uy * half, base.1 - ux * half),
            ],
            fill: stroke.color,
        });
    }

    /// Draws `other` into this picture, scaled by `scale` with its top-left
    /// corner at (`x`, `y`).
    pub fn place(&mut self, other: &Scene, x: f32, y: f32, scale: f32) {
        let p = |(px, py): (f32, f32)| (x + px * scale, y + py * scale);
        let s = |st: Stroke| Stroke {
            color: st.color,
            width: st.width * scale,
            dash: st.dash.map(|d| d * scale),
        };
        for item in &other.items {
            self.items.push(match item {
                Item::Rect {
                    x: rx,
                    y: ry,
                    w,
                    h,
                    fill,
                    stroke,
                } => Item::Rect {
                    x: x + rx * scale,
                    y: y + ry * scale,
                    w: w * scale,
                    h: h * scale,
                    fill: *fill,
                    stroke: stroke.map(s),
                },
                Item::Line { from, to, stroke } => Item::Line {
                    from: p(*from),
                    to: p(*to),
                    stroke: s(*stroke),
                },
                Item::Circle {
                    cx,
                    cy,
                    r,
                    fill,
                    stroke,
                } => Item::Circle {
                    cx: x + cx * scale,
                    cy: y + cy * scale,
                    r: r * scale,
                    fill: *fill,
                    stroke: stroke.map(s),
                },
                Item::Curve {
                    from,
                    ctrl,
                    to,
                    stroke,
                } => Item::Curve {
                    from: p(*from),
                    ctrl: p(*ctrl),
                    to: p(*to),
                    stroke: s(*stroke),
                },
                Item::Polygon { points, fill } => Item::Polygon {
                    points: points.iter().map(|&q| p(q)).collect(),
                    fill: *fill,
                },
                Item::Text(t) => Item::Text(Text {
                    x: x + t.x * scale,
                    y: y + t.y * scale,
                    size: t.size * scale,
                    ..t.clone()
                }),
            });
        }
    }
}
