// Names that leave without content: a symbolic link's target and an archive member's name. A link
// `config -> ../.env` or a zip holding `id_rsa` says where a secret is, and is refused as one.
import { posix } from "node:path";
import { type Finding, SECRET_FILE_RULE } from "./finding.js";
import { matchSecretName, type NameRule } from "./names.js";
import { createFinding, type ScanSite } from "./scan-settings.js";

/** The finding for a name that a secret-name rule matches, or nothing. */
export function secretNameFindings(site: ScanSite, name: string, rule = matchSecretName(name)): Finding[] {
  if (!rule) return [];
  const finding = createFinding(site, {
    line: 1,
    rule: SECRET_FILE_RULE,
    description: `names a ${rule.description} (${rule.id})`,
    secret: name,
  });
  return finding ? [finding] : [];
}

/**
 * The content rules' findings in a name that leaves as it is (a path, an archive member's name, a
 * link target), on line 1: a name is text the keyword pass reads like any other.
 */
export function nameTextFindings(site: ScanSite, name: string, rulePath = site.path): Finding[] {
  const bytes = Buffer.from(name, "utf8");
  const { hits } = site.settings
    .matcherFor(rulePath)
    .findMatches(bytes, () => bytes.toString("latin1"), 0, bytes.length);
  return hits.flatMap((hit) => {
    const description = `${hit.rule.description}, in a name`;
    // Where the name is the site's own (its path, its member's), the place printed is redacted.
    const spec = { line: 1, rule: hit.rule.id, description, secret: hit.secret, inName: true };
    return createFinding(site, spec) ?? [];
  });
}

/**
 * The secret-name rule that the target of the link at `linkPath` matches: the target resolved
 * against the link's directory, with any climb above the top or leading `/` dropped, so that
 * `../.env`, `/home/me/.ssh/id_rsa` and `id_rsa` are judged by what they name.
 */
export function matchLinkTarget(linkPath: string, target: string): NameRule | undefined {
  const joined = target.startsWith("/") ? target : posix.join(posix.dirname(linkPath), target);
  const resolved = posix.normalize(joined).replace(/^(?:\.\.\/|\/)+/, "");
  return matchSecretName(resolved) ?? matchSecretName(target.replace(/^(?:\.\.?\/|\/)+/, ""));
}
