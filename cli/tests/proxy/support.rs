//! Running `gdvariant proxy` as a child process on loopback, and small peers for it: a TCP
//! echo server, a UDP echo server, frames from the corpora.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;

/// How long any single wait in these tests may take before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// `corpus/VERSION/NAME.bin`.
pub fn corpus(version: &str, name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus").join(version);
    std::fs::read(path.join(format!("{name}.bin"))).unwrap()
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Builds the library's example `name` (all features, as the test suite builds the library) with the profile of this test binary,
/// and returns its path.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/PROFILE/deps/TEST: the examples go to target/PROFILE/examples.
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let mut build = Command::new(env!("CARGO"));
    // The tokio relay and the guard are the relay crate's examples; the threaded relay the core's.
    let package = if matches!(name, "relay" | "guard") { "gdvariant-relay" } else { "gdvariant" };
    build.current_dir(root()).args(["build", "--quiet", "-p", package, "--all-features"]);
    build.args(["--example", name]);
    if profile_dir.file_name().is_some_and(|p| p == "release") {
        build.arg("--release");
    }
    let status = build.status().unwrap();
    assert!(status.success(), "cargo build --example {name} failed");
    profile_dir.join("examples").join(name)
}

/// A running `gdvariant proxy`, its address, and its standard error lines.
pub struct Proxy {
    child: Child,
    /// The address it listens on.
    pub addr: SocketAddr,
    lines: Arc<Mutex<Vec<String>>>,
    reader: Option<JoinHandle<()>>,
    /// Standard error left unread ([`Proxy::start_undrained`]) until [`Proxy::drain`].
    undrained: Option<BufReader<ChildStderr>>,
}

/// Reads `stderr` line by line into `lines` until it closes.
fn keep_lines(stderr: BufReader<ChildStderr>, lines: Arc<Mutex<Vec<String>>>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        for line in stderr.lines() {
            let Ok(line) = line else { break };
            lines.lock().unwrap().push(line);
        }
    })
}

/// Runs `BINARY PREFIX_ARGS --listen 127.0.0.1:0 ARGS` with standard error on a pipe.
fn spawn(binary: &Path, prefix_args: &[&str], args: &[&str]) -> Child {
    Command::new(binary)
        .args(prefix_args)
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()))
}

impl Proxy {
    /// Starts `gdvariant proxy --listen 127.0.0.1:0 ARGS` and waits for its `listening` line.
    pub fn start(args: &[&str]) -> Proxy {
        Proxy::start_binary(Path::new(env!("CARGO_BIN_EXE_gdvariant")), &["proxy"], args)
    }

    /// Starts `BINARY PREFIX_ARGS --listen 127.0.0.1:0 ARGS` (the proxy, or an example relay
    /// that prints the same `listening` line) and waits for its `listening` line.
    pub fn start_binary(binary: &Path, prefix_args: &[&str], args: &[&str]) -> Proxy {
        let mut child = spawn(binary, prefix_args, args);
        let stderr = child.stderr.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (ready, wait) = mpsc::channel();
        let kept = Arc::clone(&lines);
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if line.contains("\"listening\"") {
                    let _ = ready.send(line.clone());
                }
                kept.lock().unwrap().push(line);
            }
        });
        let line = match wait.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("no listening line: {:?}", lines.lock().unwrap());
            }
        };
        let value: Value = serde_json::from_str(&line).unwrap();
        let addr = value["addr"].as_str().unwrap().parse().unwrap();
        Proxy { child, addr, lines, reader: Some(reader), undrained: None }
    }

    /// Starts `gdvariant proxy --listen 127.0.0.1:0 ARGS`, reads its standard error up to the
    /// `listening` line, and then leaves it unread (a pipe nobody drains, as under a stuck log
    /// shipper) until [`Proxy::drain`] or [`Proxy::stop`].
    pub fn start_undrained(args: &[&str]) -> Proxy {
        let mut child = spawn(Path::new(env!("CARGO_BIN_EXE_gdvariant")), &["proxy"], args);
        let stderr = child.stderr.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (ready, wait) = mpsc::channel();
        let kept = Arc::clone(&lines);
        std::thread::spawn(move || {
            let mut stderr = BufReader::new(stderr);
            let mut line = String::new();
            while stderr.read_line(&mut line).is_ok_and(|n| n > 0) {
                let text = line.trim_end().to_string();
                line.clear();
                kept.lock().unwrap().push(text.clone());
                if text.contains("\"listening\"") {
                    let _ = ready.send((text, stderr));
                    return;
                }
            }
        });
        let (line, stderr) = match wait.recv_timeout(PATIENCE) {
            Ok(found) => found,
            Err(_) => {
                let _ = child.kill();
                panic!("no listening line: {:?}", lines.lock().unwrap());
            }
        };
        let value: Value = serde_json::from_str(&line).unwrap();
        let addr = value["addr"].as_str().unwrap().parse().unwrap();
        Proxy { child, addr, lines, reader: None, undrained: Some(stderr) }
    }

    /// Starts reading the standard error that [`Proxy::start_undrained`] left unread.
    pub fn drain(&mut self) {
        if let Some(stderr) = self.undrained.take() {
            self.reader = Some(keep_lines(stderr, Arc::clone(&self.lines)));
        }
    }

    /// The JSON lines printed so far (lines that are not JSON are skipped).
    pub fn events(&self) -> Vec<Value> {
        let lines = self.lines.lock().unwrap();
        lines.iter().filter_map(|line| serde_json::from_str(line).ok()).collect()
    }

    /// Every line printed on standard error so far, JSON or not.
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// The `event` lines of one kind printed so far.
    pub fn events_of(&self, kind: &str) -> Vec<Value> {
        self.events().into_iter().filter(|e| e["event"] == kind).collect()
    }

    /// Waits until `count` events of `kind` were printed, and returns them.
    pub fn wait_for(&self, kind: &str, count: usize) -> Vec<Value> {
        let start = Instant::now();
        loop {
            let events = self.events_of(kind);
            if events.len() >= count {
                return events;
            }
            assert!(start.elapsed() < PATIENCE, "waited for {count} {kind} events: {events:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Sends SIGINT (Ctrl-C), waits for the exit, and returns the status and every JSON line.
    pub fn stop(mut self) -> (ExitStatus, Vec<Value>) {
        self.drain();
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(sent.success());
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(start.elapsed() < PATIENCE, "the proxy did not stop on SIGINT");
            std::thread::sleep(Duration::from_millis(10));
        };
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        (status, self.events())
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The one `summary` line among `events`.
pub fn summary(events: &[Value]) -> Value {
    let found: Vec<&Value> = events.iter().filter(|e| e["event"] == "summary").collect();
    assert_eq!(found.len(), 1, "one summary line: {events:?}");
    found[0].clone()
}

/// A TCP server on loopback that echoes every byte back on each connection (half-closing when
/// the client does), until the test process ends.
pub fn tcp_echo() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut buffer = [0u8; 64 << 10];
                loop {
                    match stream.read(&mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if stream.write_all(&buffer[..n]).is_err() {
                                break;
                            }
                        }
                    }
                }
                let _ = stream.shutdown(Shutdown::Write);
            });
        }
    });
    addr
}

/// A UDP server on loopback that sends every datagram back to its sender.
pub fn udp_echo() -> SocketAddr {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = socket.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 64 << 10];
        while let Ok((n, from)) = socket.recv_from(&mut buffer) {
            let _ = socket.send_to(&buffer[..n], from);
        }
    });
    addr
}

/// A client connection with read and write timeouts.
pub fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.set_write_timeout(Some(PATIENCE)).unwrap();
    stream
}

/// Reads until the peer closes (or the read fails, as on a reset).
pub fn read_to_close(stream: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buffer = [0u8; 64 << 10];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                panic!("no close within the read timeout")
            }
            Err(_) => break,
        }
    }
    out
}

/// Reads exactly `n` bytes.
pub fn read_exact(stream: &mut TcpStream, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    stream.read_exact(&mut out).unwrap();
    out
}

/// A frame with a `StreamPeer.put_var` prefix (little-endian) around `payload`.
pub fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

/// The frames of a framed capture, each with its prefix.
pub fn frames_of(stream: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = stream;
    while rest.len() >= 4 {
        let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        out.push(rest[..4 + len].to_vec());
        rest = &rest[4 + len..];
    }
    out
}

/// A `{"seq": n}` frame, `StreamPeer.put_var` style, built by hand: Dictionary(1), String
/// "seq", int n.
pub fn seq(n: u32) -> Vec<u8> {
    let mut payload = vec![27, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0];
    payload.extend(b"seq\0");
    payload.extend([2, 0, 0, 0]);
    payload.extend(n.to_le_bytes());
    frame(&payload)
}

/// Runs one kind of hostile client `rounds` times against `addr`, until `stop`.
pub fn hostile(addr: SocketAddr, kind: u32, rounds: u32, stop: Arc<AtomicBool>) {
    for round in 0..rounds {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let Ok(mut stream) = TcpStream::connect(addr) else { continue };
        let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
        let _ = match kind {
            // Frames of garbage (refused values), then raw garbage (negative prefixes).
            0 => {
                let mut garbage = frame(&[0xAB; 8]).repeat(10);
                garbage.extend([0xAB; 100]);
                stream.write_all(&garbage)
            }
            // A huge prefix, then a few bytes of its payload.
            1 => stream.write_all(&[0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3]),
            // Negative prefixes.
            2 => stream.write_all(&[0xFF; 64]),
            // A valid frame, one byte at a time.
            3 => seq(round).iter().try_for_each(|b| {
                std::thread::sleep(Duration::from_millis(2));
                stream.write_all(&[*b])
            }),
            // Connect and close at once.
            _ => Ok(()),
        };
        let _ = stream.shutdown(Shutdown::Both);
    }
}

/// The hostile clients of the tests, each kind on its own thread: frames of garbage, huge and
/// negative prefixes, a valid frame one byte at a time, connect-and-close. Returns the threads.
pub fn flood(addr: SocketAddr, stop: &Arc<AtomicBool>) -> Vec<JoinHandle<()>> {
    let kinds = [(0, 500), (1, 300), (2, 300), (3, 20), (4, 1500)];
    kinds
        .iter()
        .map(|&(kind, rounds)| {
            let stop = Arc::clone(stop);
            std::thread::spawn(move || hostile(addr, kind, rounds, stop))
        })
        .collect()
}

/// A WebSocket server on loopback that echoes every data message, on a runtime of its own.
pub fn websocket_echo() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let Ok(mut socket) = tokio_tungstenite::accept_async(stream).await else {
                        return;
                    };
                    while let Some(Ok(message)) = socket.next().await {
                        if message.is_binary() || message.is_text() {
                            if socket.send(message).await.is_err() {
                                break;
                            }
                        } else if message.is_close() {
                            break;
                        }
                    }
                });
            }
        });
    });
    addr
}
