//! `report --html`: one self-contained page, everything escaped; and the page in a real
//! headless browser (Debian's `chromium`), skipped with a message when there is none.

use super::{corpus, on_path, TITLE_2};
use crate::fixture::{adr, Fixture};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const IDS: [&str; 5] = ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005"];

fn page(f: &Fixture) -> String {
    let file = f.env.path().join("report.html");
    let path = file.to_str().expect("UTF-8 path");
    let run = f.run_md(&["report", "--html", path]);
    run.assert_code(0);
    assert!(
        run.stdout().starts_with(&format!("wrote {path} (")),
        "the file written, on stdout"
    );
    std::fs::read_to_string(&file).expect("the page was written")
}

#[test]
fn the_page_is_self_contained_and_holds_every_record_as_a_node_and_a_row() {
    let f = corpus();
    let html = page(&f);
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    for id in IDS {
        assert!(
            html.contains(&format!(
                "<a class=\"node\" href=\"#rec-{id}\" data-id=\"{id}\">"
            )),
            "{id}: no node"
        );
        assert!(
            html.contains(&format!("<tr id=\"rec-{id}\" ")),
            "{id}: no row"
        );
    }
    // Nothing fetched: no external file, stylesheet, script, font or image.
    for external in [
        "src=",
        "<link rel=\"stylesheet\"",
        "@import",
        "https://",
        "//cdn",
    ] {
        assert!(!html.contains(external), "{external} in the page");
    }
    // `url(` only for the SVG's own arrowheads.
    assert_eq!(
        html.matches("url(").count(),
        html.matches("url(#arrow-").count()
    );
    assert!(
        html.contains("default-src 'none'"),
        "a CSP forbids any fetch"
    );
    // Readable without a script: the table and the SVG are in the HTML itself.
    assert!(html.contains("<svg ") && html.contains("<table class=\"records\">"));
    assert_eq!(html.matches("<script").count(), 1);
    // Escaped, and a placeholder in a title is not filled.
    assert!(!html.contains("<Redis>") && !html.contains("\"friends\""));
    assert!(html.contains("Sessions in &lt;Redis&gt; &amp; &quot;friends&quot; {{graph}}"));
    assert!(TITLE_2.contains("{{graph}}"));
    // The corpus has no finding, and the page says so.
    assert!(html.contains("<p>No findings.</p>"));
}

#[test]
fn findings_are_grouped_by_code() {
    let f = corpus();
    f.write(
        "docs/adr/0006-orphan.md",
        adr(6, "Orphan", "Superseded", None, "Cites ADR-0077.").as_bytes(),
    );
    let html = page(&f);
    for code in ["superseded-without-successor", "unknown-reference"] {
        assert!(
            html.contains(&format!(
                "<div class=\"findings-group\" id=\"finding-{code}\">"
            )),
            "{code} group missing"
        );
    }
}

#[test]
fn an_unwritable_file_is_one_line_and_exit_2() {
    let f = corpus();
    let bad = f.env.path().join("no/such/folder/report.html");
    f.run_md(&["report", "--html", bad.to_str().expect("UTF-8")])
        .assert_usage_error();
    // `-` writes the page to stdout.
    let run = f.run_md(&["report", "--html", "-"]);
    run.assert_code(0);
    assert!(run.stdout().starts_with("<!DOCTYPE html>"));
}

// ------------------------------------------------------------------ in a real browser

/// The browser, when one is installed: Debian's `chromium` or `chromium-headless-shell`.
pub fn chromium() -> Option<PathBuf> {
    on_path(&[
        "chromium",
        "chromium-headless-shell",
        "chromium-browser",
        "google-chrome",
    ])
}

/// What one run of the browser printed.
pub struct Browsed {
    pub stdout: String,
    pub stderr: String,
}

impl Browsed {
    /// The console messages: with `--enable-logging=stderr --v=0`, each is a `:CONSOLE` line.
    pub fn console(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .collect()
    }
}

/// Runs the browser headless on `file` with `args`, in a fresh profile, killed after a minute.
pub fn browse(f: &Fixture, browser: &Path, file: &Path, args: &[String]) -> Browsed {
    let profile = tempfile::tempdir().expect("a fresh profile folder");
    let mut child = f
        .command(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", file.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the browser");
    let (out, err) = (child.stdout.take(), child.stderr.take());
    let read = |p: Option<std::process::ChildStdout>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = p {
                std::io::Read::read_to_string(&mut p, &mut s).ok();
            }
            s
        })
    };
    let stdout = read(out);
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut p) = err {
            std::io::Read::read_to_string(&mut p, &mut s).ok();
        }
        s
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait for the browser").is_none() {
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("the browser hung on {}", file.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Browsed {
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    }
}

/// The share of pixels unlike the top-left one, and how many colours the image has (up to 64).
fn ink(png_file: &Path) -> (f64, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_file).expect("open the screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let bytes = &buf[..info.buffer_size()];
    let step = info.color_type.samples();
    let first = &bytes[..step];
    let mut colours: Vec<&[u8]> = Vec::new();
    let mut unlike = 0usize;
    for px in bytes.chunks(step) {
        if px != first {
            unlike += 1;
        }
        if colours.len() < 64 && !colours.contains(&px) {
            colours.push(px);
        }
    }
    (unlike as f64 / (bytes.len() / step) as f64, colours.len())
}

/// The corpus, and forty more records in chains of citations and amendments, some rejected.
fn bigger() -> Fixture {
    let f = corpus();
    for n in 6..46u32 {
        let status = ["Accepted", "Proposed", "Accepted", "Rejected"][n as usize % 4];
        let mut body = format!("Builds on ADR-{:04}.", n - 1);
        if n % 5 == 0 {
            body.push_str(&format!(" Amends ADR-{:04}.", n - 3));
        }
        f.write(
            &format!("docs/adr/{n:04}-decision-{n}.md"),
            adr(
                n,
                &format!("Decision number {n}"),
                status,
                Some("2025-01-01"),
                &body,
            )
            .as_bytes(),
        );
    }
    f
}

#[test]
fn the_page_loads_in_a_headless_browser_without_a_console_error_and_draws_something() {
    let Some(browser) = chromium() else {
        crate::skip::skipped(
            "no chromium on PATH (apt-get install chromium); the browser test did not run",
        );
        return;
    };
    let f = bigger();
    // The detector first: a page that logs an error and throws must be caught, or a silent
    // page proves nothing.
    let probe = f.env.path().join("probe.html");
    std::fs::write(
        &probe,
        "<!DOCTYPE html><title>probe</title><script>console.error('probe'); nosuch();</script>",
    )
    .expect("write the probe");
    let caught = browse(&f, &browser, &probe, &["--dump-dom".into()]);
    assert!(
        caught.console().len() >= 2,
        "the console detector saw nothing on a failing page:\n{}",
        caught.stderr
    );

    let html = page(&f);
    // The page as written, plus a line recording when its load event fired.
    let timed = html.replacen(
        "</body>",
        "<script>addEventListener('load',function(){document.documentElement.setAttribute('data-load-ms',String(Math.round(performance.now())))})</script></body>",
        1,
    );
    let file = f.env.path().join("timed.html");
    std::fs::write(&file, &timed).expect("write the page");
    let dom = browse(&f, &browser, &file, &["--dump-dom".into()]);
    assert!(
        dom.console().is_empty(),
        "console messages: {:#?}",
        dom.console()
    );
    let ids: Vec<String> = (1..46).map(|n| format!("ADR-{n:04}")).collect();
    for id in &ids {
        assert!(
            dom.stdout.contains(&format!("data-id=\"{id}\"><title>")),
            "{id}: no node in the DOM"
        );
        assert!(
            dom.stdout.contains(&format!("<tr id=\"rec-{id}\"")),
            "{id}: no row in the DOM"
        );
    }
    // The script ran: it shows the filter the page hides from a reader without scripts.
    assert!(
        dom.stdout.contains("<input type=\"search\" id=\"filter\"")
            && !dom.stdout.contains(
                "id=\"filter\" placeholder=\"Filter records by id, title, status or path\" hidden"
            ),
        "the filter was not shown"
    );
    let load_ms = dom
        .stdout
        .split("data-load-ms=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap_or("not measured")
        .to_string();
    eprintln!(
        "browser: {} records, page {} KiB, load event at {load_ms} ms",
        ids.len(),
        html.len() / 1024
    );

    let keep = std::env::var_os("CONTEXT_GRAPH_SCREENSHOTS").map(PathBuf::from);
    let report = f.env.path().join("report.html");
    for (w, h) in [(1280, 800), (390, 844)] {
        let shot = f.env.path().join(format!("report-{w}x{h}.png"));
        let run = browse(
            &f,
            &browser,
            &report,
            &[
                format!("--window-size={w},{h}"),
                format!("--screenshot={}", shot.display()),
            ],
        );
        assert!(run.console().is_empty(), "console: {:#?}", run.console());
        let (share, colours) = ink(&shot);
        eprintln!(
            "screenshot {w}x{h}: {:.1}% of pixels drawn, {colours}+ colours",
            share * 100.0
        );
        assert!(
            share > 0.02 && colours > 8,
            "{w}x{h} looks blank: {share}, {colours}"
        );
        if let Some(dir) = &keep {
            std::fs::create_dir_all(dir).ok();
            std::fs::copy(&shot, dir.join(shot.file_name().expect("a name"))).ok();
        }
    }
}
