//! Running the engines: a Godot 3 peer script, the Godot 4 web driver; free loopback ports.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one engine run may take before the test fails.
pub const ENGINE_PATIENCE: Duration = Duration::from_secs(180);

/// This folder.
pub fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines")
}

/// A loopback port free a moment ago (the engines take a port number, not a listener).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A loopback UDP port free a moment ago.
pub fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// An engine process and the lines it prints on standard output.
pub struct Engine {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    ready: mpsc::Receiver<()>,
    name: String,
}

impl Engine {
    /// Runs `command`, collecting its standard output (and error) lines.
    fn spawn(name: &str, mut command: Command) -> Engine {
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().unwrap_or_else(|e| panic!("{name}: cannot run: {e}"));
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (signal, ready) = mpsc::channel();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let lines = Arc::clone(&lines);
            let signal = signal.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    if line.trim() == "READY" {
                        let _ = signal.send(());
                    }
                    lines.lock().unwrap().push(line);
                }
            });
        }
        Engine { child, lines, ready, name: name.to_string() }
    }

    /// A Godot 3 peer: `godot3-server --no-window -s godot3/peer.gd` with `mode`, `port` and
    /// `local_port`, in a scratch home directory.
    pub fn godot3(mode: &str, port: u16, local_port: u16) -> Engine {
        let home = std::env::temp_dir()
            .join(format!("gdvariant-godot3-{}-{mode}-{port}", std::process::id()));
        std::fs::create_dir_all(&home).unwrap();
        let mut command = Command::new("godot3-server");
        command
            .args(["--no-window", "-s"])
            .arg(here().join("godot3/peer.gd"))
            .current_dir(&home)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("d"))
            .env("XDG_CONFIG_HOME", home.join("c"))
            .env("XDG_CACHE_HOME", home.join("k"))
            .env("LC_ALL", "C.UTF-8")
            .env("PEER_MODE", mode)
            .env("PEER_PORT", port.to_string())
            .env("PEER_LOCAL_PORT", local_port.to_string())
            .env("PEER_TIMEOUT", "120");
        Engine::spawn(&format!("godot3 {mode}"), command)
    }

    /// A Godot 3 SceneTree script of this folder (`godot3/NAME`), with environment `env`, in a
    /// scratch home directory.
    pub fn godot3_script(name: &str, env: &[(&str, String)]) -> Engine {
        let home = std::env::temp_dir().join(format!(
            "gdvariant-godot3-{}-{name}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&home).unwrap();
        let mut command = Command::new("godot3-server");
        command
            .args(["--no-window", "-s"])
            .arg(here().join("godot3").join(name))
            .current_dir(&home)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("d"))
            .env("XDG_CONFIG_HOME", home.join("c"))
            .env("XDG_CACHE_HOME", home.join("k"))
            .env("LC_ALL", "C.UTF-8")
            .env("MP_SCRIPTS", here().join("godot3"));
        for (key, value) in env {
            command.env(key, value);
        }
        Engine::spawn(&format!("godot3 {name}"), command)
    }

    /// A Godot 3 project (`--path project -s script`), with environment `env`, in a scratch home
    /// directory.
    pub fn godot3_project(project: &Path, script: &str, env: &[(&str, String)]) -> Engine {
        let home = std::env::temp_dir().join(format!(
            "gdvariant-godot3-{}-{script}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&home).unwrap();
        let mut command = Command::new("godot3-server");
        command
            .args(["--no-window", "--path"])
            .arg(project)
            .args(["-s", script])
            .current_dir(&home)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("d"))
            .env("XDG_CONFIG_HOME", home.join("c"))
            .env("XDG_CACHE_HOME", home.join("k"))
            .env("LC_ALL", "C.UTF-8");
        for (key, value) in env {
            command.env(key, value);
        }
        Engine::spawn(&format!("godot3 {script}"), command)
    }

    /// Waits until a line starting with `prefix` was printed (at most [`ENGINE_PATIENCE`]).
    pub fn wait_line(&self, prefix: &str) {
        let start = Instant::now();
        while !self.lines.lock().unwrap().iter().any(|l| l.starts_with(prefix)) {
            if start.elapsed() > ENGINE_PATIENCE {
                panic!("{}: no {prefix} line: {:?}", self.name, self.lines.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the process to end (at most [`ENGINE_PATIENCE`]) and returns every line it
    /// printed.
    pub fn finish(mut self) -> Vec<String> {
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            if start.elapsed() > ENGINE_PATIENCE {
                let _ = self.child.kill();
                panic!("{}: did not end in time: {:?}", self.name, self.lines.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100)); // the last lines
        self.lines.lock().unwrap().clone()
    }

    /// A Godot 4 project folder of this folder, run in the Godot 4.6 web build in headless
    /// Chromium with user arguments `args` (by `corpus/multiplayer/web4.py`).
    pub fn godot4_project(folder: &str, args: &[String]) -> Engine {
        let mut command = Command::new("python3");
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        command.arg(root.join("corpus/multiplayer/web4.py")).arg(here().join(folder)).args(args);
        Engine::spawn(&format!("godot4 {folder}"), command)
    }

    /// The Godot 4.6 web build in headless Chromium, running `godot4/ws_client.gd` against
    /// `url` (driven by `godot4/run.py`).
    pub fn godot4_websocket(url: &str) -> Engine {
        let mut command = Command::new("python3");
        command.arg(here().join("godot4/run.py")).arg(url).arg("150");
        Engine::spawn("godot4 websocket client", command)
    }

    /// Waits for the `READY` line of a server.
    pub fn wait_ready(&self) {
        if self.ready.recv_timeout(ENGINE_PATIENCE).is_err() {
            panic!("{}: never ready: {:?}", self.name, self.lines.lock().unwrap());
        }
    }

    /// Waits for the process to end and returns its `RESULT` line's text after `RESULT ok `;
    /// fails the test on `RESULT fail`, on no result, or after [`ENGINE_PATIENCE`].
    pub fn result(mut self) -> String {
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            if start.elapsed() > ENGINE_PATIENCE {
                let _ = self.child.kill();
                panic!("{}: no result in time: {:?}", self.name, self.lines.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100)); // the last lines
        let lines = self.lines.lock().unwrap().clone();
        let result =
            lines.iter().find_map(|l| l.trim().strip_prefix("RESULT ").map(str::to_string));
        match result {
            Some(text) if text.starts_with("ok ") => text["ok ".len()..].to_string(),
            _ => panic!("{}: {result:?}\n{}", self.name, lines.join("\n")),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
