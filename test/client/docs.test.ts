// The README and docs/ as a reader of the repository meets them: a short front door, and
// every link between the pages leads to a page and a heading that exist, inside the
// repository (nothing it does not hold, such as a spec kept beside it).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const pages = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const read = (page: string) => readFileSync(join(ROOT, page), "utf8");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");

const anchorsOf = (page: string) =>
  new Set([...read(page).matchAll(/^#+ (.*)$/gm)].map((match) => anchor(match[1]!)));

/** Relative links outside code blocks: [text](target). */
const linksOf = (page: string) =>
  [
    ...read(page)
      .replace(/```[\s\S]*?```/g, "")
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target));

describe("the README and docs/", () => {
  it("are the README and the six pages by reader", () => {
    expect(pages).toEqual(
      expect.arrayContaining(
        ["api", "architecture", "development", "performance", "team", "using"].map(
          (name) => `docs/${name}.md`,
        ),
      ),
    );
  });

  it("keep the README under 300 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThan(300);
  });

  it.each(pages)("%s links only to pages and headings the repository holds", (page) => {
    const links = linksOf(page);
    for (const link of links) {
      const [path, hash] = link.split("#") as [string, string | undefined];
      const target = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      expect(relative(ROOT, target), link).not.toMatch(/^\.\./);
      expect(existsSync(target), link).toBe(true);
      if (hash && target.endsWith(".md")) {
        expect(anchorsOf(relative(ROOT, target)), link).toContain(hash);
      }
    }
  });
});
