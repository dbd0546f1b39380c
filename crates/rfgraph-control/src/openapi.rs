//! The OpenAPI 3.0 document of the control port, served at
//! `GET /api/openapi.json`: written by hand here, and checked against
//! the router's [`ROUTES`](crate::routes::ROUTES) by `tests/openapi.rs`
//! (every route documented, every documented path a route).

use serde_json::{Value, json};

/// A path parameter.
fn path_param(name: &str, what: &str) -> Value {
    json!({ "name": name, "in": "path", "required": true,
            "description": what, "schema": { "type": "string" } })
}

/// An optional integer query parameter.
fn query_int(name: &str, what: &str, min: u64, max: u64, default: u64) -> Value {
    json!({ "name": name, "in": "query", "required": false, "description": what,
            "schema": { "type": "integer", "minimum": min, "maximum": max, "default": default } })
}

fn fg() -> Value {
    path_param("fg", "the flowgraph's name")
}

fn block() -> Value {
    path_param("block", "a block's instance name")
}

/// A JSON response described by `what`, with `schema`.
fn json_response(what: &str, schema: Value) -> Value {
    json!({ "description": what, "content": { "application/json": { "schema": schema } } })
}

fn error(what: &str) -> Value {
    json_response(what, json!({ "$ref": "#/components/schemas/Error" }))
}

/// The responses of an operation: `ok` for 200 (or `code`), and the
/// errors every route on a graph may give.
fn responses(code: &str, ok: Value) -> Value {
    json!({
        code: ok,
        "400": error("a malformed request or a value that does not fit"),
        "401": error("a token is required and was not given"),
        "404": error("no such flowgraph, block, parameter, reading, port or variable"),
        "503": error("the block finished or did not answer in time"),
    })
}

/// A JSON request body.
fn body(what: &str) -> Value {
    json!({ "required": true, "description": what,
            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Value" } } } })
}

fn any_object(what: &str) -> Value {
    json_response(what, json!({ "type": "object" }))
}

/// The document.
pub fn document() -> Value {
    let value = json!({ "$ref": "#/components/schemas/NamedValue" });
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "rfgraph control port",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Running rfgraph flowgraphs over HTTP and JSON. Every request carries the token when one is required: `Authorization: Bearer TOKEN` or `?token=TOKEN`. Replies give values tagged (`{\"type\": \"f64\", \"value\": 2.5}`); requests may send them tagged or plain.",
        },
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer" },
                "query": { "type": "apiKey", "in": "query", "name": "token" },
            },
            "schemas": {
                "Error": { "type": "object", "required": ["error"],
                           "properties": { "error": { "type": "string" } } },
                "Value": { "description": "a value: tagged (`{\"type\": \"f64\", \"value\": 2.5}`) or plain JSON" },
                "NamedValue": { "type": "object", "properties": {
                    "name": { "type": "string" }, "value": { "$ref": "#/components/schemas/Value" } } },
                "Placement": { "type": "object", "nullable": true, "properties": {
                    "workers": { "type": "array", "items": { "type": "object", "properties": {
                        "core": { "type": "integer", "nullable": true },
                        "blocks": { "type": "array", "items": { "type": "integer" } } } } },
                    "parallel_segments": { "type": "array", "items": {
                        "type": "array", "items": { "type": "integer" } } } } },
            },
        },
        "security": [ {}, { "bearer": [] }, { "query": [] } ],
        "paths": {
            "/api/openapi.json": { "get": {
                "summary": "this document",
                "responses": { "200": any_object("the OpenAPI document") } } },
            "/api/flowgraphs": { "get": {
                "summary": "the flowgraphs served",
                "responses": { "200": json_response("name, scheduler and state of each",
                    json!({ "type": "array", "items": { "type": "object", "properties": {
                        "name": { "type": "string" }, "scheduler": { "type": "string" },
                        "state": { "type": "string", "enum": ["running", "stopping", "finished"] } } } })),
                    "401": error("a token is required and was not given") } } },
            "/api/flowgraphs/{fg}": { "get": {
                "summary": "the graph: blocks (ports, parameter declarations, readings, `display`), stream and message edges, `placement`",
                "parameters": [fg()],
                "responses": responses("200", json_response("the graph", json!({ "type": "object", "properties": {
                    "name": { "type": "string" }, "scheduler": { "type": "string" },
                    "state": { "type": "string" },
                    "placement": { "$ref": "#/components/schemas/Placement" },
                    "blocks": { "type": "array", "items": { "type": "object" } },
                    "streams": { "type": "array", "items": { "type": "object" } },
                    "messages": { "type": "array", "items": { "type": "object" } } } }))) } },
            "/api/flowgraphs/{fg}/stats": { "get": {
                "summary": "every block's counters and every stream edge's fill",
                "parameters": [fg()],
                "responses": responses("200", any_object("state, blocks, edges")) } },
            "/api/flowgraphs/{fg}/live": { "get": {
                "summary": "WebSocket: `stats` messages every period, `frame` messages from display blocks",
                "description": "Upgrade to a WebSocket (`?token=` carries the token). The server sends text JSON: `{\"type\":\"stats\",\"time_s\",\"state\",\"blocks\":[{\"name\",\"work_calls\",\"items_consumed\",\"items_produced\",\"messages_handled\",\"work_ns\",\"in_rate\",\"out_rate\",\"work_share\",\"status\"}],\"edges\":[{\"writer\",\"output\",\"reader\",\"input\",\"capacity\",\"fill\",\"fill_fraction\"}],\"cores\":[{\"core\",\"load\",\"blocks\"}]}` every period, and `{\"type\":\"frame\",\"block\",\"frame\"}` when a display's frame changed. Status: `done`, `blocked` (an output edge at least 90 % full), `starving` (inputs empty, nothing moved, upstream running), `idle` (nothing moved), `ok`. The client may send `{\"period_ms\": N}` or `{\"frame_ms\": N}`.",
                "parameters": [fg(),
                    query_int("period_ms", "stats period, clamped", 50, 10_000, 500),
                    query_int("frame_ms", "least time between two frames of a display, clamped", 33, 5_000, 100)],
                "responses": responses("101", json!({ "description": "switching to the WebSocket protocol" })) } },
            "/api/flowgraphs/{fg}/blocks/{block}": { "get": {
                "summary": "one block: ports, parameters with current values, counters",
                "parameters": [fg(), block()],
                "responses": responses("200", any_object("the block")) } },
            "/api/flowgraphs/{fg}/blocks/{block}/params/{name}": {
                "get": {
                    "summary": "a parameter's current value",
                    "parameters": [fg(), block(), path_param("name", "the parameter (or an alias)")],
                    "responses": responses("200", json_response("its value", value.clone())) },
                "put": {
                    "summary": "set a settable parameter; replies with the value it took",
                    "parameters": [fg(), block(), path_param("name", "the parameter (or an alias)")],
                    "requestBody": body("the new value"),
                    "responses": responses("200", json_response("its value now", value.clone())) } },
            "/api/flowgraphs/{fg}/blocks/{block}/readings/{name}": { "get": {
                "summary": "a reading's current value",
                "parameters": [fg(), block(), path_param("name", "the reading")],
                "responses": responses("200", json_response("its value", value)) } },
            "/api/flowgraphs/{fg}/blocks/{block}/call/{port}": { "post": {
                "summary": "send a message to a message input and await the handler's reply",
                "parameters": [fg(), block(), path_param("port", "a message input")],
                "requestBody": body("the message"),
                "responses": responses("200", json_response("the reply", json!({ "type": "object",
                    "properties": { "reply": { "$ref": "#/components/schemas/Value" } } }))) } },
            "/api/flowgraphs/{fg}/blocks/{block}/post/{port}": { "post": {
                "summary": "send a message to a message input without waiting",
                "parameters": [fg(), block(), path_param("port", "a message input")],
                "requestBody": body("the message"),
                "responses": responses("202", json!({ "description": "queued" })) } },
            "/api/flowgraphs/{fg}/variables": { "get": {
                "summary": "the settable variables of a graph built from a file",
                "parameters": [fg()],
                "responses": responses("200", json_response("name and value of each",
                    json!({ "type": "array", "items": { "type": "object" } }))) } },
            "/api/flowgraphs/{fg}/variables/{name}": { "put": {
                "summary": "set a variable (a number, a boolean, or an expression string), with every block setting it reaches",
                "parameters": [fg(), path_param("name", "the variable")],
                "requestBody": body("a number, a boolean, or an expression string"),
                "responses": responses("200", any_object("variable, value, variables, applied, deferred, failed")) } },
            "/api/flowgraphs/{fg}/stop": { "post": {
                "summary": "ask the graph to stop",
                "parameters": [fg()],
                "responses": responses("202", json!({ "description": "asked" })) } },
        },
    })
}
