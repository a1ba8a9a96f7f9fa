#!/usr/bin/env python3
"""bench/code-words.py REPO_DIR... > src/text/code_words_table.rs

Writes the table of how common each word is in code (src/text/code_words.rs, `rarity`): for
every word as `each_word` reads it, the share of a repository's tracked files that have it,
averaged over the repositories given (clones with a work tree; Markdown, reStructuredText,
AsciiDoc and plain text left out, as are binary files and all past 200,000 bytes), kept when
at least one file in five hundred has it. The table in the tree was made from 27 public
repositories of eleven languages (docs/related.md names them).
"""
import collections, os, re, subprocess, sys

# Mirrors src/text/code_words.rs: keep the two in step.
STOP = set(re.findall(r'"([a-z]+)"', open(os.path.join(os.path.dirname(__file__), '..', 'src', 'text', 'code_words.rs')).read().split('const STOP')[1].split('];')[0]))
ENDINGS = ('ations', 'ation', 'ings', 'ing', 'ers', 'er', 'es', 'ed', 'ly', 's')

def stem(w):
    for end in ENDINGS:
        if len(w) > len(end) + 3 and w.endswith(end):
            return w[:-len(end)]
    return w

def words(text):
    out = []
    for m in re.finditer(r'[A-Za-z][A-Za-z0-9]*', text):
        ident = m.group(0)
        parts = re.findall(r'[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+', ident)
        long = [p for p in parts if len(p) >= 3]
        if len(long) > 1 and len(ident) <= 30:
            long.append(ident)
        given = set()
        for p in long:
            p = p.lower()
            if p in given:
                continue
            given.add(p)
            if p.isdigit() or p in STOP:
                continue
            out.append(stem(p))
    return out

def read(path, cap=200_000):
    try:
        b = open(path, 'rb').read(cap)
    except OSError:
        return None
    if b'\0' in b[:8000]:
        return None
    return b.decode('utf8', 'ignore')

def main(repos):
    share = collections.defaultdict(float)
    used = 0
    for root in repos:
        files = subprocess.run(['git', 'ls-files'], cwd=root, capture_output=True, text=True).stdout.split('\n')
        files = [f for f in files if f and not f.endswith(('.md', '.rst', '.txt', '.adoc'))]
        df = collections.Counter()
        n = 0
        for f in files[:20000]:
            text = read(os.path.join(root, f))
            if text is None:
                continue
            n += 1
            df.update(set(words(text) + words(f)))
        if n < 20:
            continue
        used += 1
        for w, c in df.items():
            share[w] += c / n
    rows = sorted((w, round(10000 * s / used)) for w, s in share.items() if s / used >= 0.002)
    print('//! Made by `bench/code-words.py` (see there): each word as `code_words::each_word` gives it')
    print('//! and the share of a repository\'s files that have it, in ten-thousandths, sorted.')
    print(f'//! {used} repositories.')
    print()
    print('pub(super) static TABLE: &[(&str, u16)] = &[')
    for w, s in rows:
        print(f'    ("{w}", {min(s, 10000)}),')
    print('];')

if __name__ == '__main__':
    main(sys.argv[1:])
