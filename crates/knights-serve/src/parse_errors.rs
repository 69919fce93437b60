//! Requests hyper cannot read (a URI over its 65,534 bytes, headers over
//! its buffer, a malformed request line) are answered by hyper itself,
//! before any handler, with an empty body. This wrapper of a connection
//! gives those answers the server's error form, `{"error": "..."}` with one
//! sentence (docs/http-api.md): it recognises hyper's automatic answer, a
//! whole head of status 400, 414 or 431 with `content-length: 0` written
//! at once (the connection's last output), and writes the same status with
//! a body instead. Everything else passes through unchanged.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose automatic error answers carry a sentence.
pub struct ParseErrors<T> {
    inner: T,
    /// The rewritten answer still to be written.
    pending: Vec<u8>,
    written: usize,
}

impl<T> ParseErrors<T> {
    /// Wraps `inner`.
    pub fn new(inner: T) -> ParseErrors<T> {
        ParseErrors {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// The sentence for hyper's automatic answer of `status`.
fn sentence(status: &[u8]) -> Option<&'static str> {
    Some(match status {
        b"400" => "the request could not be read as HTTP/1.1: its request line or a header is malformed",
        b"414" => "the request's URI is longer than this server reads (65534 bytes); ask with a shorter query",
        b"431" => "the request's headers are larger than this server reads; send fewer or shorter headers",
        _ => return None,
    })
}

/// The answer to write instead of `head`, when `head` is hyper's automatic
/// answer to a request it could not read: a whole head, no body.
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let rest = head.strip_prefix(b"HTTP/1.1 ")?;
    let sentence = sentence(rest.get(..3)?)?;
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    if end + 4 != head.len() {
        return None;
    }
    let text = String::from_utf8_lossy(&head[..end]).to_ascii_lowercase();
    if !text.lines().any(|l| l.trim() == "content-length: 0") {
        return None;
    }
    let line_end = head.windows(2).position(|w| w == b"\r\n")?;
    let status_line = String::from_utf8_lossy(&head[..line_end]);
    let body = serde_json::json!({ "error": sentence }).to_string();
    Some(
        format!(
            "{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: AsyncWrite + Unpin> ParseErrors<T> {
    /// Writes what is pending of a rewritten answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for ParseErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ParseErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        if let Some(answer) = rewrite(buf) {
            self.pending = answer;
            self.written = 0;
            // Taken whole; written by this call as far as it goes, the rest
            // by the next write, flush or shutdown.
            if let Poll::Ready(Err(e)) = self.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_empty_error_head_is_rewritten() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Sun, 06 Dec 2026 07:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(rewrite(head).unwrap()).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 414 URI Too Long\r\n"),
            "{answer}"
        );
        let body = answer.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("URI is longer"));
        assert!(answer.contains(&format!("content-length: {}\r\n", body.len())));
        for other in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 2\r\n\r\n{}",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n",
            b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n",
            b"{\"error\": \"HTTP/1.1 414 \"}",
        ] {
            assert!(
                rewrite(other).is_none(),
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }
}
