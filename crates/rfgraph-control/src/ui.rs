//! The web UI: one page, served at `/`, that draws the served graphs
//! live (see `docs/architecture.md`, "The control port"). It is plain
//! HTML, CSS and JavaScript kept under `web/` and compiled into the
//! binary, so nothing is built or fetched on a user's machine; the page
//! talks only to this server's `/api` routes and its WebSocket.
//!
//! The page is put together once, with the stylesheet and scripts
//! inlined, so that it is a single request: with a token, that request is
//! `/?token=...` and the page then sends the token itself on every call.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use std::sync::OnceLock;

/// The page's parts, in the order the scripts must run.
const PAGE: &str = include_str!("../web/index.html");
const STYLE: &str = include_str!("../web/style.css");
const SCRIPTS: &[(&str, &str)] = &[
    ("util.js", include_str!("../web/util.js")),
    ("graph.js", include_str!("../web/graph.js")),
    ("panel.js", include_str!("../web/panel.js")),
    ("widgets.js", include_str!("../web/widgets.js")),
    ("displays.js", include_str!("../web/displays.js")),
    ("readings.js", include_str!("../web/readings.js")),
    ("app.js", include_str!("../web/app.js")),
];

/// What the page may load and talk to: this server only, and no framing
/// by another site.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'unsafe-inline'; \
     style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/// The whole page, stylesheet and scripts inlined.
pub fn page() -> &'static str {
    static CACHE: OnceLock<String> = OnceLock::new();
    CACHE.get_or_init(|| {
        let scripts: String = SCRIPTS
            .iter()
            .map(|(name, code)| format!("<script>/* {name} */\n{code}</script>\n"))
            .collect();
        PAGE.replacen("/*STYLE*/", STYLE, 1)
            .replacen("<!--SCRIPTS-->", &scripts, 1)
    })
}

async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        page(),
    )
}

/// The routes of the page: `/` (and `/index.html`).
pub(crate) fn router<S: Clone + Send + Sync + 'static>() -> axum::Router<S> {
    axum::Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_inlines_every_part_once() {
        let page = page();
        assert!(!page.contains("/*STYLE*/") && !page.contains("<!--SCRIPTS-->"));
        assert!(page.contains(STYLE));
        for (name, code) in SCRIPTS {
            assert_eq!(page.matches(&format!("/* {name} */")).count(), 1, "{name}");
            assert!(page.contains(code), "{name}");
            // A script must not end the inline <script> element early.
            assert!(!code.contains("</script"), "{name}");
        }
    }
}
