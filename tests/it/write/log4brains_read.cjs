// Reads a repository's records with log4brains' own library (the npm package
// `@log4brains/core`) and prints, as JSON, each record as log4brains sees it: its slug, status,
// the slug it is superseded by, and every link of its body to a `.md` file that log4brains could
// not resolve to a record (left as Markdown, where a resolved one becomes an `<AdrLink>`), or
// resolved but shown with a label that is not the record's slug.
//   node log4brains_read.cjs MODULE ROOT
"use strict";
const { Log4brains } = require(process.argv[2]);
(async () => {
  const l4b = Log4brains.create(process.argv[3]);
  const adrs = await l4b.searchAdrs();
  const out = adrs.map((a) => {
    const mdx = a.body.enhancedMdx;
    const unresolved = [...mdx.matchAll(/\[([^\]]*)\]\(([^)]*\.md)\)/g)].map((m) => m[0]);
    const labelled = [...mdx.matchAll(/<AdrLink [^>]*customLabel="([^"]*)"/g)].map((m) => m[1]);
    const linked = [...mdx.matchAll(/<AdrLink slug="([^"]*)"/g)].map((m) => m[1]);
    return {
      slug: a.slug,
      title: a.title,
      status: a.status,
      supersededBy: a.supersededBy,
      publicationDate: a.publicationDate,
      linked,
      unresolved,
      labelled,
      links: mdx.split("\n").filter((l) => /^- (Supersedes|Amends)\b/i.test(l)),
    };
  });
  process.stdout.write(JSON.stringify(out) + "\n");
  process.exit(0);
})().catch((e) => {
  console.error(String(e && e.stack || e));
  process.exit(2);
});
