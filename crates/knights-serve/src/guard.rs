//! Only its own page: a middleware on every route that refuses requests
//! another web site could make through the user's browser.
//!
//! - `Host` must name the server: the address it listens on (on loopback
//!   also `localhost`, `127.0.0.1` and `[::1]`, with its port; when it
//!   listens on every address, any IP address with its port), or a name of
//!   [`super::Config::allow_hosts`]. A page on `evil.example` whose name
//!   was rebound to 127.0.0.1 (DNS rebinding) sends `Host: evil.example`
//!   and is refused, so it can read nothing.
//! - Under `/api/`, an `Origin` must be the server's own, exactly: `http://`
//!   and the request's `Host` (checked above). Another address the server
//!   would answer (another IP address when it listens on every address,
//!   `127.0.0.2` on loopback, an allowed name on another port or under
//!   `https://`) is another origin, a page the server did not serve. A
//!   request without an `Origin` must not
//!   say `Sec-Fetch-Site: cross-site` or `same-site` (browsers send the
//!   latter from another port of the same host). A page elsewhere can then
//!   neither start work (a `fetch`, a form, an `EventSource`) nor read an
//!   answer. The page itself (`/`) may be linked from anywhere.
//!
//! Refusals are 403 with one sentence, before any handler runs.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use super::{ApiError, AppState};

/// The middleware: refuses with 403, or runs the request.
pub async fn only_our_page(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let config = &state.config;
    check(
        request.headers(),
        request.uri().path(),
        config.addr,
        &config.allow_hosts,
    )?;
    Ok(next.run(request).await)
}

/// The checks of the module documentation, on a request's headers and path.
pub fn check(
    headers: &HeaderMap,
    path: &str,
    addr: SocketAddr,
    allowed: &[String],
) -> Result<(), ApiError> {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !host_is_ours(host, addr, allowed) {
        return Err(refused(format!(
            "this server answers only requests addressed to {addr}{}, not to '{}' (a name can be allowed with `knights serve --allow-host NAME`)",
            if addr.ip().is_loopback() { " or localhost" } else { "" },
            knights::excerpt(host)
        )));
    }
    if !path.starts_with("/api/") {
        return Ok(());
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let authority = origin.strip_prefix("http://");
        if !authority.is_some_and(|a| a.eq_ignore_ascii_case(host.trim())) {
            return Err(refused(format!(
                "this server answers only its own page, not a page of '{}'",
                knights::excerpt(origin)
            )));
        }
        return Ok(());
    }
    let site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if site.eq_ignore_ascii_case("cross-site") || site.eq_ignore_ascii_case("same-site") {
        return Err(refused(
            "this server answers only its own page, and this request came from another site".into(),
        ));
    }
    Ok(())
}

fn refused(message: String) -> ApiError {
    ApiError::with(StatusCode::FORBIDDEN, message)
}

/// Whether `host` (a `Host` header) names the
/// server listening on `addr`, or is one of the `allowed` names.
pub fn host_is_ours(host: &str, addr: SocketAddr, allowed: &[String]) -> bool {
    let (name, port) = split_host(host);
    if name.is_empty() {
        return false;
    }
    if allowed.iter().any(|a| a.eq_ignore_ascii_case(name)) {
        return true;
    }
    // Without a port the browser means port 80.
    if port.unwrap_or(80) != addr.port() {
        return false;
    }
    let ip = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name)
        .parse::<IpAddr>();
    if addr.ip().is_loopback() && name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match ip {
        Ok(ip) if addr.ip().is_unspecified() => !ip.is_unspecified(),
        Ok(ip) if addr.ip().is_loopback() => ip.is_loopback(),
        Ok(ip) => ip == addr.ip(),
        Err(_) => false,
    }
}

/// `name` and the port of `name`, `name:port`, `[v6]` or `[v6]:port`;
/// an empty name when it is none of these.
fn split_host(host: &str) -> (&str, Option<u16>) {
    let host = host.trim();
    let (name, rest) = match host.find(']') {
        Some(end) if host.starts_with('[') => host.split_at(end + 1),
        _ => host.split_at(host.find(':').unwrap_or(host.len())),
    };
    match rest.strip_prefix(':') {
        None if rest.is_empty() => (name, None),
        Some(port) => match port.parse::<u16>() {
            Ok(port) => (name, Some(port)),
            Err(_) => ("", None),
        },
        None => ("", None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_the_address_listened_on() {
        let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let none: &[String] = &[];
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(host_is_ours(ok, loopback, none), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "",
            "localhost:80",
            "192.168.1.2:8080",
            "127.0.0.1:8080:1",
            "[::1]",
        ] {
            assert!(!host_is_ours(bad, loopback, none), "{bad}");
        }
        let allowed = ["knights.example".to_string()];
        assert!(host_is_ours("knights.example", loopback, &allowed));
        assert!(host_is_ours("Knights.Example:443", loopback, &allowed));
        let everywhere: SocketAddr = "0.0.0.0:80".parse().unwrap();
        assert!(host_is_ours("192.168.1.2", everywhere, none));
        assert!(host_is_ours("192.168.1.2:80", everywhere, none));
        assert!(!host_is_ours("evil.example", everywhere, none));
        let v6: SocketAddr = "[::1]:9000".parse().unwrap();
        assert!(host_is_ours("[::1]:9000", v6, none));
        assert!(host_is_ours("localhost:9000", v6, none));
    }

    /// Headers of an API request with `host` and `origin`.
    fn request(host: &str, origin: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        headers.insert(header::ORIGIN, origin.parse().unwrap());
        headers
    }

    #[test]
    fn an_origin_is_ours_only_when_it_is_our_host_exactly() {
        let path = "/api/encrypt";
        let everywhere: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let allowed = ["knights.example".to_string()];
        let ours = [
            ("192.168.1.2:8080", "http://192.168.1.2:8080", everywhere),
            ("127.0.0.1:8080", "http://127.0.0.1:8080", loopback),
            ("localhost:8080", "http://LOCALHOST:8080", loopback),
            (
                "knights.example:8080",
                "http://knights.example:8080",
                loopback,
            ),
        ];
        for (host, origin, addr) in ours {
            let headers = request(host, origin);
            assert!(check(&headers, path, addr, &allowed).is_ok(), "{origin}");
        }
        let theirs = [
            // Any IP address with our port, when we listen on every address.
            ("192.168.1.2:8080", "http://203.0.113.9:8080", everywhere),
            // Another loopback address.
            ("127.0.0.1:8080", "http://127.0.0.2:8080", loopback),
            ("127.0.0.1:8080", "http://localhost:8080", loopback),
            // An allowed name on another port, or under https.
            (
                "knights.example:8080",
                "http://knights.example:9999",
                loopback,
            ),
            ("knights.example:8080", "http://knights.example", loopback),
            (
                "knights.example:8080",
                "https://knights.example:8080",
                loopback,
            ),
            ("127.0.0.1:8080", "https://127.0.0.1:8080", loopback),
            ("127.0.0.1:8080", "null", loopback),
        ];
        for (host, origin, addr) in theirs {
            let headers = request(host, origin);
            let err = check(&headers, path, addr, &allowed).unwrap_err();
            assert_eq!(err.status, StatusCode::FORBIDDEN, "{origin}");
        }
    }
}
