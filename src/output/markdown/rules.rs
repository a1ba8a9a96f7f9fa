//! The rules records carry, as `why` and `record` show them (docs/rules.md).

use super::*;

/// The violations listed under a rule before the rest is left to `--json`.
const LISTED: usize = 10;

/// `why PATH`'s rules: each rule that applies to the file, and where the file breaks it.
pub(super) fn why_rules(out: &mut String, rules: &[WhyRule]) {
    if rules.is_empty() {
        return;
    }
    out.push_str("## Rules that apply\n\n");
    for r in rules {
        let broken = match r.violations.len() {
            0 => "holds".to_string(),
            n => {
                let lines: Vec<String> = r
                    .violations
                    .iter()
                    .take(LISTED)
                    .map(|v| match &v.target {
                        Some(t) => format!("line {} ({})", v.line, code(t)),
                        None => format!("line {}", v.line),
                    })
                    .collect();
                let more = if n > LISTED {
                    format!(", … {} more in `--json`", n - LISTED)
                } else {
                    String::new()
                };
                format!("**broken** at {}{more}", lines.join(", "))
            }
        };
        let _ = writeln!(out, "- {} {}: {broken}", md(&r.id), code(&r.rule));
    }
    out.push('\n');
}

/// `record ID`'s rules, each with its count; a proposed record's are what they would flag.
pub(super) fn record_rules(out: &mut String, rules: &[RuleResult], status: Status) {
    if rules.is_empty() {
        return;
    }
    if status.is_current() {
        out.push_str("## Rules\n\n");
    } else {
        out.push_str("## Rules (not enforced: what they would flag)\n\n");
    }
    for r in rules {
        let found = if !r.checked {
            "not checked: imports are not read yet".to_string()
        } else {
            match r.violations.len() {
                0 => "0 violations".to_string(),
                1 => "1 violation".to_string(),
                n => format!("{n} violations"),
            }
        };
        let _ = writeln!(out, "- line {}: {}: {found}", r.line, code(&r.rule));
        for v in r.violations.iter().take(LISTED) {
            let at = code(&format!("{}:{}", v.path, v.line));
            match &v.target {
                Some(t) => {
                    let _ = writeln!(out, "  - {at} ({})", code(t));
                }
                None => {
                    let _ = writeln!(out, "  - {at}");
                }
            }
        }
        if r.violations.len() > LISTED {
            let _ = writeln!(
                out,
                "  - … {} more in `--json`",
                r.violations.len() - LISTED
            );
        }
    }
    out.push('\n');
}
