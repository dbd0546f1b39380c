//! The REST routes under `/api` and their handlers. Every call into a
//! running graph (parameters, readings, messages) waits for the block's
//! reply on a blocking thread, never on the server's own.
//!
//! | Route | |
//! |---|---|
//! | `GET /api/flowgraphs` | the graphs served: name, scheduler, state |
//! | `GET /api/flowgraphs/{fg}` | blocks with ports, parameter declarations, readings and display; stream and message edges; placement |
//! | `GET /api/flowgraphs/{fg}/stats` | every block's counters, every stream edge's fill |
//! | `GET /api/flowgraphs/{fg}/blocks/{block}` | one block: its ports, parameters with current values, counters |
//! | `GET`/`PUT /api/flowgraphs/{fg}/blocks/{block}/params/{name}` | read or set a parameter (a settable one) |
//! | `GET /api/flowgraphs/{fg}/blocks/{block}/readings/{name}` | read a reading |
//! | `POST /api/flowgraphs/{fg}/blocks/{block}/call/{port}` | a message, awaiting the handler's reply |
//! | `POST /api/flowgraphs/{fg}/blocks/{block}/post/{port}` | a message, not awaited |
//! | `GET /api/flowgraphs/{fg}/variables` | the settable variables and their values |
//! | `PUT /api/flowgraphs/{fg}/variables/{name}` | set one, with every block setting it reaches |
//! | `POST /api/flowgraphs/{fg}/stop` | ask the graph to stop |
//! | `GET /api/flowgraphs/{fg}/live` | WebSocket: stats every period, display frames (see [`crate::live`]) |
//! | `GET /api/openapi.json` | the OpenAPI 3.0 document of these routes |
//!
//! The graph's description also says which worker and core runs which
//! block (`placement`, `null` if the scheduler does not say) and, for
//! each display block, its `display` reading as plain JSON (`display`,
//! `null` for other blocks). The table of routes is [`ROUTES`].
//!
//! Values are JSON as [`crate::pmt_json`] maps them.

use crate::error::ApiError;
use crate::graph::ServedGraph;
use crate::pmt_json::{from_json, to_json};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::MethodRouter;
use rfgraph::{BlockId, Pmt};
use serde_json::{Value, json};
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// How long a call into a block waits for its reply.
pub(crate) const REPLY_TIMEOUT: Duration = Duration::from_secs(5);

/// The graphs served.
pub(crate) type Graphs = Arc<RwLock<Vec<ServedGraph>>>;

type ApiResult = Result<Json<Value>, ApiError>;

/// One route: its path (axum syntax, `{name}` a path parameter) and
/// its HTTP methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The path.
    pub path: &'static str,
    /// Its methods, upper case.
    pub methods: &'static [&'static str],
}

const fn route(path: &'static str, methods: &'static [&'static str]) -> Route {
    Route { path, methods }
}

/// Every route the control port serves, the one list the router is
/// built from and the OpenAPI document ([`crate::openapi`]) is checked
/// against.
pub const ROUTES: &[Route] = &[
    route("/api/openapi.json", &["GET"]),
    route("/api/flowgraphs", &["GET"]),
    route("/api/flowgraphs/{fg}", &["GET"]),
    route("/api/flowgraphs/{fg}/stats", &["GET"]),
    route("/api/flowgraphs/{fg}/live", &["GET"]),
    route("/api/flowgraphs/{fg}/blocks/{block}", &["GET"]),
    route(
        "/api/flowgraphs/{fg}/blocks/{block}/params/{name}",
        &["GET", "PUT"],
    ),
    route(
        "/api/flowgraphs/{fg}/blocks/{block}/readings/{name}",
        &["GET"],
    ),
    route("/api/flowgraphs/{fg}/blocks/{block}/call/{port}", &["POST"]),
    route("/api/flowgraphs/{fg}/blocks/{block}/post/{port}", &["POST"]),
    route("/api/flowgraphs/{fg}/variables", &["GET"]),
    route("/api/flowgraphs/{fg}/variables/{name}", &["PUT"]),
    route("/api/flowgraphs/{fg}/stop", &["POST"]),
];

/// The handlers of `r`, one per method it lists.
fn handlers(r: &Route) -> MethodRouter<Graphs> {
    let mut m = MethodRouter::new();
    for &method in r.methods {
        m = match (r.path, method) {
            ("/api/openapi.json", "GET") => m.get(openapi),
            ("/api/flowgraphs", "GET") => m.get(list),
            ("/api/flowgraphs/{fg}", "GET") => m.get(describe),
            ("/api/flowgraphs/{fg}/stats", "GET") => m.get(stats),
            ("/api/flowgraphs/{fg}/live", "GET") => m.get(crate::live::live),
            ("/api/flowgraphs/{fg}/blocks/{block}", "GET") => m.get(block),
            ("/api/flowgraphs/{fg}/blocks/{block}/params/{name}", "GET") => m.get(read_param),
            ("/api/flowgraphs/{fg}/blocks/{block}/params/{name}", "PUT") => m.put(set_param),
            ("/api/flowgraphs/{fg}/blocks/{block}/readings/{name}", "GET") => m.get(read_reading),
            ("/api/flowgraphs/{fg}/blocks/{block}/call/{port}", "POST") => m.post(call),
            ("/api/flowgraphs/{fg}/blocks/{block}/post/{port}", "POST") => m.post(post_message),
            ("/api/flowgraphs/{fg}/variables", "GET") => m.get(variables),
            ("/api/flowgraphs/{fg}/variables/{name}", "PUT") => m.put(set_variable),
            ("/api/flowgraphs/{fg}/stop", "POST") => m.post(stop),
            // A route listed without its handler: a programming error,
            // caught by every test that starts a server.
            (path, method) => unreachable!("no handler for {method} {path}"),
        };
    }
    m
}

/// The router of every route in [`ROUTES`].
pub(crate) fn router(graphs: Graphs) -> axum::Router {
    ROUTES
        .iter()
        .fold(axum::Router::new(), |app, r| app.route(r.path, handlers(r)))
        .with_state(graphs)
}

async fn openapi() -> Json<Value> {
    Json(crate::openapi::document())
}

pub(crate) fn graph(graphs: &Graphs, name: &str) -> Result<ServedGraph, ApiError> {
    graphs
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|g| g.name == name)
        .cloned()
        .ok_or_else(|| ApiError::NotFound(format!("no flowgraph `{name}`")))
}

fn block_of(g: &ServedGraph, name: &str) -> Result<BlockId, ApiError> {
    g.block(name)
        .ok_or_else(|| ApiError::NotFound(format!("no block `{name}` in `{}`", g.name)))
}

/// Runs `f` (which waits on a block) on a blocking thread.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Unavailable(format!("the call did not complete: {e}")))?
}

/// A request body as a `Pmt`.
fn body_pmt(body: Value) -> Result<Pmt, ApiError> {
    from_json(body).map_err(ApiError::BadRequest)
}

async fn list(State(graphs): State<Graphs>) -> Json<Value> {
    let list: Vec<Value> = graphs
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "scheduler": g.handle.scheduler(),
                "state": g.handle.state(),
            })
        })
        .collect();
    Json(Value::Array(list))
}

/// A block's parameter declarations, as JSON.
fn param_specs(g: &ServedGraph, id: BlockId) -> Value {
    let specs = g.handle.param_specs(id).unwrap_or_default();
    Value::Array(specs.iter().map(|s| s.to_json()).collect())
}

async fn describe(State(graphs): State<Graphs>, Path(fg): Path<String>) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let topo = g.handle.topology();
    let mut blocks = serde_json::to_value(&topo.blocks).unwrap_or_default();
    if let Value::Array(list) = &mut blocks {
        for (i, b) in list.iter_mut().enumerate() {
            b["params"] = param_specs(&g, BlockId(i));
        }
    }
    let displays = if g.displays.list.is_empty() {
        Default::default()
    } else {
        let g = g.clone();
        blocking(move || Ok(g.displays.descriptions(&g.handle))).await?
    };
    if let Value::Array(list) = &mut blocks {
        for (i, b) in list.iter_mut().enumerate() {
            b["display"] = displays.get(&i).cloned().unwrap_or(Value::Null);
        }
    }
    Ok(Json(json!({
        "name": g.name,
        "scheduler": g.handle.scheduler(),
        "state": g.handle.state(),
        "placement": g.handle.placement(),
        "blocks": blocks,
        "streams": topo.streams,
        "messages": topo.messages,
    })))
}

async fn stats(State(graphs): State<Graphs>, Path(fg): Path<String>) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let blocks: Vec<Value> = g.handle.stats().iter().map(|s| s.to_json()).collect();
    Ok(Json(json!({
        "state": g.handle.state(),
        "blocks": blocks,
        "edges": g.handle.edge_fill(),
    })))
}

async fn block(
    State(graphs): State<Graphs>,
    Path((fg, name)): Path<(String, String)>,
) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let id = block_of(&g, &name)?;
    blocking(move || {
        let info = &g.handle.topology().blocks[id.0];
        let params: Vec<Value> = g
            .handle
            .param_specs(id)?
            .iter()
            .map(|s| {
                let mut v = s.to_json();
                // A finished block has no current value to give.
                if let Ok(p) = g.handle.param(id, s.name, REPLY_TIMEOUT) {
                    v["value"] = to_json(&p);
                }
                v
            })
            .collect();
        let stats = g.handle.stats()[id.0].to_json();
        let mut out = serde_json::to_value(info).unwrap_or_default();
        out["params"] = Value::Array(params);
        out["stats"] = stats;
        Ok(Json(out))
    })
    .await
}

/// The declaration of parameter `param` (or an alias) of block `name`.
fn param_spec(
    g: &ServedGraph,
    id: BlockId,
    name: &str,
    param: &str,
) -> Result<rfgraph::params::ParamSpec, ApiError> {
    g.handle
        .param_specs(id)?
        .iter()
        .find(|s| s.is_called(param))
        .cloned()
        .ok_or_else(|| ApiError::NotFound(format!("block `{name}` has no parameter `{param}`")))
}

async fn read_param(
    State(graphs): State<Graphs>,
    Path((fg, name, param)): Path<(String, String, String)>,
) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let id = block_of(&g, &name)?;
    blocking(move || {
        if !g
            .handle
            .param_specs(id)?
            .iter()
            .any(|s| s.is_called(&param))
        {
            return Err(ApiError::NotFound(format!(
                "block `{name}` has no parameter `{param}`"
            )));
        }
        let value = g.handle.param(id, &param, REPLY_TIMEOUT)?;
        Ok(Json(json!({ "name": param, "value": to_json(&value) })))
    })
    .await
}

async fn set_param(
    State(graphs): State<Graphs>,
    Path((fg, name, param)): Path<(String, String, String)>,
    Json(body): Json<Value>,
) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let id = block_of(&g, &name)?;
    let value = body_pmt(body)?;
    blocking(move || {
        let spec = param_spec(&g, id, &name, &param)?;
        if !spec.settable {
            return Err(ApiError::BadRequest(format!(
                "parameter `{param}` of `{name}` is fixed once the block is built"
            )));
        }
        g.handle.call(id, spec.name, value, REPLY_TIMEOUT)?;
        let now = g.handle.param(id, spec.name, REPLY_TIMEOUT)?;
        Ok(Json(json!({ "name": spec.name, "value": to_json(&now) })))
    })
    .await
}

async fn read_reading(
    State(graphs): State<Graphs>,
    Path((fg, name, reading)): Path<(String, String, String)>,
) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let id = block_of(&g, &name)?;
    if !g.handle.readings(id)?.contains(&reading.as_str()) {
        return Err(ApiError::NotFound(format!(
            "block `{name}` has no reading `{reading}`"
        )));
    }
    blocking(move || {
        let value = g.handle.reading(id, &reading, REPLY_TIMEOUT)?;
        Ok(Json(json!({ "name": reading, "value": to_json(&value) })))
    })
    .await
}

/// Checks that `port` is a message input of block `id`.
fn message_input(g: &ServedGraph, id: BlockId, block: &str, port: &str) -> Result<(), ApiError> {
    let inputs = &g.handle.topology().blocks[id.0].message_inputs;
    if inputs.iter().any(|p| p == port) {
        Ok(())
    } else {
        Err(ApiError::NotFound(format!(
            "block `{block}` has no message input `{port}` (it has: {})",
            if inputs.is_empty() {
                "none".to_string()
            } else {
                inputs.join(", ")
            }
        )))
    }
}

async fn call(
    State(graphs): State<Graphs>,
    Path((fg, name, port)): Path<(String, String, String)>,
    Json(body): Json<Value>,
) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let id = block_of(&g, &name)?;
    message_input(&g, id, &name, &port)?;
    let msg = body_pmt(body)?;
    blocking(move || {
        let reply = g.handle.call(id, &port, msg, REPLY_TIMEOUT)?;
        Ok(Json(json!({ "reply": to_json(&reply) })))
    })
    .await
}

async fn post_message(
    State(graphs): State<Graphs>,
    Path((fg, name, port)): Path<(String, String, String)>,
    Json(body): Json<Value>,
) -> Result<StatusCode, ApiError> {
    let g = graph(&graphs, &fg)?;
    let id = block_of(&g, &name)?;
    message_input(&g, id, &name, &port)?;
    g.handle.post(id, &port, body_pmt(body)?)?;
    Ok(StatusCode::ACCEPTED)
}

async fn variables(State(graphs): State<Graphs>, Path(fg): Path<String>) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let Some(control) = &g.variables else {
        return Ok(Json(json!([])));
    };
    let control = control.lock().unwrap_or_else(|e| e.into_inner());
    let list: Vec<Value> = control
        .settable()
        .into_iter()
        .map(|n| {
            let value = control.value(n).map(|v| v.to_string());
            let widget = control.widget(n).map(|w| w.to_json());
            json!({ "name": n, "value": value, "label": control.label(n), "widget": widget })
        })
        .collect();
    Ok(Json(Value::Array(list)))
}

async fn set_variable(
    State(graphs): State<Graphs>,
    Path((fg, name)): Path<(String, String)>,
    Json(body): Json<Value>,
) -> ApiResult {
    let g = graph(&graphs, &fg)?;
    let Some(control) = g.variables.clone() else {
        return Err(ApiError::NotFound(format!(
            "`{fg}` has no settable variables"
        )));
    };
    // A string is an expression of the variables (`"2 * base"`), as on
    // `--control-stdin`; a number or boolean is itself.
    let text = match body {
        Value::String(s) => s,
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => if b { "True" } else { "False" }.to_string(),
        other => {
            return Err(ApiError::BadRequest(format!(
                "a variable takes a number, a boolean or an expression string, not {other}"
            )));
        }
    };
    blocking(move || {
        let mut control = control.lock().unwrap_or_else(|e| e.into_inner());
        let change = control.set(&g.handle, &name, &text).map_err(|e| match e {
            rfgraph_flowfile::build::ControlError::UnknownVariable { .. } => {
                ApiError::NotFound(e.to_string())
            }
            other => ApiError::BadRequest(other.to_string()),
        })?;
        let pairs = |list: &[(String, rfgraph_flowfile::expr::Value)]| -> Vec<Value> {
            list.iter()
                .map(|(n, v)| json!({ "name": n, "value": v.to_string() }))
                .collect()
        };
        Ok(Json(json!({
            "variable": change.variable,
            "value": change.value.to_string(),
            "variables": pairs(&change.variables),
            "applied": pairs(&change.applied),
            "deferred": change.deferred,
            "failed": change.failed,
        })))
    })
    .await
}

async fn stop(
    State(graphs): State<Graphs>,
    Path(fg): Path<String>,
) -> Result<StatusCode, ApiError> {
    graph(&graphs, &fg)?.handle.stop();
    Ok(StatusCode::ACCEPTED)
}
