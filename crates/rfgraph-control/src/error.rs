//! [`ApiError`]: every way a control-port request can fail, each with
//! its HTTP status and a JSON body `{"error": "..."}` that says why.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rfgraph::HandleError;

/// A request the control port refuses or cannot complete.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No flowgraph, block, parameter, port or variable of that name.
    #[error("{0}")]
    NotFound(String),
    /// The request is malformed or its value does not fit.
    #[error("{0}")]
    BadRequest(String),
    /// The token is missing or wrong.
    #[error("a valid token is required (header `Authorization: Bearer TOKEN` or `?token=`)")]
    Unauthorized,
    /// The block finished, or did not answer in time.
    #[error("{0}")]
    Unavailable(String),
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl From<HandleError> for ApiError {
    fn from(e: HandleError) -> Self {
        match e {
            HandleError::UnknownBlock(_) | HandleError::UnknownPort { .. } => {
                ApiError::NotFound(e.to_string())
            }
            // A handler's refusal: the value did not fit.
            HandleError::Handler { .. } => ApiError::BadRequest(e.to_string()),
            _ => ApiError::Unavailable(e.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), Json(body)).into_response()
    }
}
