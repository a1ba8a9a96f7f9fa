//! What `git -c KEY=VALUE` sets for the command it runs: git hands it to its hooks in the
//! environment (`GIT_CONFIG_PARAMETERS`), which gix does not read. So `git -c
//! context-graph.strict=true commit` is strict, as git's own config would be (docs/hooks.md).

/// The last value `GIT_CONFIG_PARAMETERS` gives `key` (section and name compared as git
/// compares them, ignoring case): `Some(None)` for a key given without `=` (true, to git).
pub fn value(key: &str) -> Option<Option<String>> {
    let env = std::env::var("GIT_CONFIG_PARAMETERS").ok()?;
    parse(&env)
        .into_iter()
        .rev()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| v)
}

/// Each `'KEY'='VALUE'` (git 2.31 and later), `'KEY=VALUE'` or `'KEY'` of `env`, in order; in
/// a quoted run, `'\''` stands for one `'`. Anything else ends the reading.
pub fn parse(env: &str) -> Vec<(String, Option<String>)> {
    read(env).0
}

/// [`parse`], `None` when some of `env` could not be read.
pub fn parse_all(env: &str) -> Option<Vec<(String, Option<String>)>> {
    let (out, rest) = read(env);
    rest.is_empty().then_some(out)
}

/// [`parse`] and what was left unread.
fn read(env: &str) -> (Vec<(String, Option<String>)>, &str) {
    let mut out = Vec::new();
    let mut rest = env.trim_start();
    while let Some((key, after)) = quoted(rest) {
        rest = after;
        let (key, value) = match rest.strip_prefix('=') {
            Some(after) => match quoted(after) {
                Some((value, after)) => {
                    rest = after;
                    (key, Some(value))
                }
                None => break,
            },
            None => match key.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_string())),
                None => (key, None),
            },
        };
        out.push((key, value));
        rest = rest.trim_start();
    }
    (out, rest)
}

/// One shell-quoted word at the start of `s`: `'…'` runs joined by `\'`.
fn quoted(s: &str) -> Option<(String, &str)> {
    let mut word = String::new();
    let mut rest = s.strip_prefix('\'')?;
    loop {
        let end = rest.find('\'')?;
        word.push_str(&rest[..end]);
        rest = &rest[end + 1..];
        match rest.strip_prefix("\\''") {
            Some(after) => {
                word.push('\'');
                rest = after;
            }
            None => return Some((word, rest)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn kv(k: &str, v: Option<&str>) -> (String, Option<String>) {
        (k.to_string(), v.map(str::to_string))
    }

    #[test]
    fn reads_each_form_git_writes() {
        assert_eq!(
            parse("'context-graph.strict'='true' 'core.commentChar'=';'"),
            vec![
                kv("context-graph.strict", Some("true")),
                kv("core.commentChar", Some(";"))
            ]
        );
        assert_eq!(
            parse("'a.b=c d' 'flag.on'"),
            vec![kv("a.b", Some("c d")), kv("flag.on", None)]
        );
        assert_eq!(parse("'a.b'='it'\\''s'"), vec![kv("a.b", Some("it's"))]);
        assert_eq!(parse("'a.b'='x' broken"), vec![kv("a.b", Some("x"))]);
        assert!(parse("").is_empty());
    }
}
