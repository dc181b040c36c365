//! A minimal HTTP/1.1 server for the SDK's requests: keep-alive connections,
//! `Content-Length` bodies, one answer per request (or a reset, when a fault says so).

use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::server::Inner;

/// What the connection does with one request.
pub(crate) enum Reply {
    /// An HTTP answer with a JSON body.
    Answer {
        status: u16,
        body: String,
        request_id: String,
        /// The `Date` header: the server's (Athena's) clock, as HTTP prints it.
        date: String,
    },
    /// Close the connection with a TCP reset and no answer.
    Reset,
}

/// The request line and headers, parsed.
struct Head {
    target: String,
    content_length: usize,
    expects_continue: bool,
    chunked: bool,
    len: usize,
}

fn parse_head(buf: &[u8]) -> Result<Option<Head>, ()> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(len)) => {
            let mut head = Head {
                target: String::new(),
                content_length: 0,
                expects_continue: false,
                chunked: false,
                len,
            };
            for h in req.headers.iter() {
                let value = String::from_utf8_lossy(h.value);
                if h.name.eq_ignore_ascii_case("x-amz-target") {
                    head.target = value.into_owned();
                } else if h.name.eq_ignore_ascii_case("content-length") {
                    head.content_length = value.trim().parse().map_err(|_| ())?;
                } else if h.name.eq_ignore_ascii_case("expect") {
                    head.expects_continue = value.eq_ignore_ascii_case("100-continue");
                } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
                    head.chunked = value.to_ascii_lowercase().contains("chunked");
                }
            }
            Ok(Some(head))
        }
        Ok(httparse::Status::Partial) => Ok(None),
        Err(_) => Err(()),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

pub(crate) async fn accept_loop(listener: TcpListener, inner: Arc<Inner>) {
    while let Ok((stream, _)) = listener.accept().await {
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(stream, inner.clone()));
    }
}

async fn connection(mut stream: TcpStream, inner: Arc<Inner>) {
    let mut buf: Vec<u8> = Vec::with_capacity(16 * 1024);
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let head = loop {
            match parse_head(&buf) {
                Ok(Some(head)) => break head,
                Ok(None) => {}
                Err(()) => {
                    let _ = stream
                        .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                        .await;
                    return;
                }
            }
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        if head.chunked {
            let _ = stream
                .write_all(b"HTTP/1.1 411 Length Required\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .await;
            return;
        }
        if head.expects_continue
            && buf.len() < head.len + head.content_length
            && stream
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .await
                .is_err()
        {
            return;
        }
        while buf.len() < head.len + head.content_length {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let body: Vec<u8> = buf[head.len..head.len + head.content_length].to_vec();
        buf.drain(..head.len + head.content_length);
        match inner.handle(&head.target, &body).await {
            Reply::Answer {
                status,
                body,
                request_id,
                date,
            } => {
                let text = format!(
                    "HTTP/1.1 {status} {}\r\nContent-Type: application/x-amz-json-1.1\r\nContent-Length: {}\r\nx-amzn-RequestId: {request_id}\r\nDate: {date}\r\n\r\n{body}",
                    reason(status),
                    body.len()
                );
                if stream.write_all(text.as_bytes()).await.is_err() {
                    return;
                }
            }
            Reply::Reset => {
                // SO_LINGER 0 turns the close into a TCP RST, what a crashed front end or
                // a dropped load-balancer connection looks like. With a zero timeout the
                // close does not block (tokio deprecates the option for non-zero ones).
                #[allow(deprecated)]
                let _ = stream.set_linger(Some(std::time::Duration::ZERO));
                return;
            }
        }
    }
}
