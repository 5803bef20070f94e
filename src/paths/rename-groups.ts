// Paths joined by renames, in sets: what keeps a proposal's rename whole when only some files of it
// are kept (the client's scope stage, and the worker fitting its proposals to the patch limit).

export class RenameGroups {
  private readonly parent = new Map<string, string>();

  /** The representative of `path`'s group (itself until a rename joins it to another). */
  find(path: string): string {
    let root = path;
    for (let up = this.parent.get(root); up !== undefined && up !== root; up = this.parent.get(root)) {
      root = up;
    }
    this.parent.set(path, root);
    return root;
  }

  /** One group for all of `paths` (the names of one file section, both sides of a rename). */
  join(paths: readonly string[]): void {
    const [first, ...rest] = paths.map((path) => this.find(path));
    if (first === undefined) return;
    for (const root of rest) if (root !== first) this.parent.set(root, first);
  }

  /**
   * The paths whose group is in scope: one that holds a path the change touched, or only paths that
   * did not exist before (files the reviewer created). A group of files that existed, none of them
   * in the change, is out.
   */
  inScope(
    paths: Iterable<string>,
    changed: ReadonlySet<string>,
    existed: (path: string) => boolean,
  ): Set<string> {
    const all = [...paths];
    const groups = new Set(all.map((path) => this.find(path)));
    for (const path of all) if (existed(path)) groups.delete(this.find(path));
    for (const path of all) if (changed.has(path)) groups.add(this.find(path));
    return new Set(all.filter((path) => groups.has(this.find(path))));
  }
}
