//! GNU Radio's `qtgui` module: the Qt GUI sinks that have a web display
//! (`rfgraph-blocks`' `display` module). The importer keeps every other
//! `qtgui_*` block, and these with a message input type (`msg_complex`,
//! `msg_float`) or an integer type, as null sinks with a notice
//! (see [`is_web_display`]).

use super::{Map, P};

/// GNU Radio's window names for its sinks → the displays' `window`.
const WINDOW: P = P::Enum(
    "wintype",
    "window",
    &[
        ("window.WIN_BLACKMAN_hARRIS", "blackman_harris"),
        ("window.WIN_BLACKMAN_HARRIS", "blackman_harris"),
        ("firdes.WIN_BLACKMAN_hARRIS", "blackman_harris"),
        ("window.WIN_HAMMING", "hamming"),
        ("firdes.WIN_HAMMING", "hamming"),
        ("window.WIN_HANN", "hann"),
        ("firdes.WIN_HANN", "hann"),
        ("window.WIN_BLACKMAN", "blackman"),
        ("firdes.WIN_BLACKMAN", "blackman"),
        ("window.WIN_RECTANGULAR", "rectangular"),
        ("firdes.WIN_RECTANGULAR", "rectangular"),
        ("window.WIN_KAISER", "kaiser"),
        ("firdes.WIN_KAISER", "kaiser"),
        // No flat-top window here: the display's default draws it.
        ("window.WIN_FLATTOP", "blackman_harris"),
        ("firdes.WIN_FLATTOP", "blackman_harris"),
    ],
);

/// GNU Radio's ten per-input labels → the displays' `labels` list.
const LABELS: P = P::TextList(
    &[
        "label1", "label2", "label3", "label4", "label5", "label6", "label7", "label8", "label9",
        "label10",
    ],
    "labels",
);

/// The entries. The other parameters pass by the name or alias the
/// displays declare (`fftsize`, `fc`, `bw`, `name`, `ymin`, `size`,
/// `srate`, `update_time`, `nconnections`, `gui_hint`, ...).
pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "qtgui_const_sink_x",
        rf: "web_const_sink",
        params: &[P::Type("type"), LABELS],
    },
    Map {
        gr: "qtgui_freq_sink_x",
        rf: "web_freq_sink",
        // GRC 3.10's default `average` is `False`: no averaging.
        params: &[
            P::Type("type"),
            WINDOW,
            LABELS,
            P::NumberOr("average", "average", "1.0"),
        ],
    },
    Map {
        gr: "qtgui_number_sink",
        rf: "web_number_sink",
        params: &[
            P::Type("type"),
            LABELS,
            P::Enum(
                "graph_type",
                "graph_type",
                &[
                    ("qtgui.NUM_GRAPH_HORIZ", "horizontal"),
                    ("qtgui.NUM_GRAPH_VERT", "vertical"),
                    ("qtgui.NUM_GRAPH_NONE", "text"),
                ],
            ),
        ],
    },
    Map {
        gr: "qtgui_time_sink_x",
        rf: "web_time_sink",
        params: &[P::Type("type"), LABELS],
    },
    Map {
        gr: "qtgui_waterfall_sink_x",
        rf: "web_waterfall_sink",
        params: &[P::Type("type"), WINDOW, LABELS],
    },
];

/// True when GNU Radio's Qt GUI block `id` with item type `ty` (its
/// `type` parameter) becomes a web display: it has an entry here and a
/// stream input of complex or float items.
pub fn is_web_display(id: &str, ty: &str) -> bool {
    let ty = ty.trim();
    MAPS.iter().any(|m| m.gr == id)
        && match id {
            "qtgui_number_sink" => matches!(ty, "float" | ""),
            "qtgui_const_sink_x" => matches!(ty, "complex" | ""),
            _ => matches!(ty, "complex" | "float" | ""),
        }
}
