// The built-in forbidden paths (design §9, layer 4) as data, one family per kind of tool: files that
// make the user's machine run something, or send data somewhere, on an ordinary action (commit, push,
// install, opening the editor, entering the directory, CI). Gitignore syntax: a leading `/` (or a `/`
// inside) anchors a pattern at the top, where the tool reads only the top-level copy; `**/` or a bare
// name matches at any depth, where the tool reads nested copies or finds its file from the current
// directory upwards. docs/design.md §9 has the table with the reason for each depth.

export interface ForbiddenFamily {
  family: string;
  patterns: readonly string[];
}

export const FORBIDDEN_FAMILIES: readonly ForbiddenFamily[] = [
  {
    // The policy file decides what the next review sends (exclude, secrets.allow) and what its
    // proposals may touch: a proposal loosening it would reach past this boundary into the next.
    family: "this tool's policy",
    patterns: ["/.review-remote.json"],
  },
  {
    // Forges read their CI definition from the top of the repository only.
    family: "forge CI",
    patterns: [
      ".github/**",
      "/.gitlab/**",
      "/.circleci/**",
      "/.gitea/**",
      "/.forgejo/**",
      "/.woodpecker/**",
      "/.woodpecker.yml",
      "/.woodpecker.yaml",
      "/bitbucket-pipelines.yml",
      "/.travis.yml",
      "/.buildkite/**",
      "/buildkite.yml",
      "/buildkite.yaml",
      "/buildkite.json",
      "/.drone.yml",
      "/.drone.yaml",
      "/.drone.jsonnet",
      "/.drone.star",
      // The other hosted CI services that run what a pull request's copy of their file says.
      "/appveyor.yml",
      "/.appveyor.yml",
      "/.cirrus.yml",
      "/.cirrus.star",
      "/.semaphore/**",
      "/.build.yml",
      "/.builds/**",
      "/.tekton/**",
      "/.teamcity/**",
      "/buildspec.yml",
      "/buildspec.yaml",
      "/codemagic.yaml",
      "/bitrise.yml",
      "/.readthedocs.yaml",
      "/.readthedocs.yml",
      "/netlify.toml",
    ],
  },
  {
    // The forges require the code owners' approval under branch protection, and read the file from
    // the top or docs/ (and .github/, .gitlab/, .gitea/, .forgejo/, refused above): an owner a
    // proposal adds approves its own changes from then on.
    family: "forge review rules",
    patterns: ["/CODEOWNERS", "/docs/CODEOWNERS"],
  },
  {
    // The bots that open and merge pull requests read their configuration from the top (their copies
    // under .github/ and .gitlab/ are refused above, with Dependabot's): a proposal turning automerge
    // on decides who approves the changes that come next, as CODEOWNERS does.
    family: "merge bots",
    patterns: [
      "/renovate.json",
      "/renovate.json5",
      "/.renovaterc",
      "/.renovaterc.json",
      "/.renovaterc.json5",
      "/.mergify.yml",
      "/.mergify/**",
      "/.kodiak.toml",
      "/bors.toml",
    ],
  },
  {
    // The file is named per job or included from another one, so any copy may be the one that runs.
    family: "CI with configurable paths",
    patterns: [
      ".gitlab-ci.yml",
      "*.gitlab-ci.yml",
      "Jenkinsfile",
      "Jenkinsfile[-._]*",
      "*.jenkinsfile",
      "azure-pipelines*.yml",
      "azure-pipelines*.yaml",
      "**/.azure-pipelines/**",
    ],
  },
  {
    family: "git and its hook managers",
    patterns: [
      ".gitattributes",
      ".gitignore",
      ".gitmodules",
      ".lfsconfig",
      "**/.githooks/**",
      "**/.git-hooks/**",
      "**/.husky/**",
      ".pre-commit-config.yaml",
      ".pre-commit-config.yml",
      "lefthook*.yml",
      "lefthook*.yaml",
      "lefthook*.toml",
      "lefthook*.json",
      ".lefthook*.yml",
      ".lefthook*.yaml",
      ".lefthook*.toml",
      ".lefthook*.json",
      "**/.lefthook/**",
      "**/.lefthook-local/**",
      ".overcommit.yml",
      ".simple-git-hooks*",
      "simple-git-hooks.*",
    ],
  },
  {
    family: "package managers",
    patterns: [
      ".npmrc",
      ".yarnrc*",
      "**/.yarn/releases/**",
      "**/.yarn/plugins/**",
      "**/.yarn/sdks/**",
      // Berry's patches of dependencies (`yarn patch-commit`): the next install applies one to its
      // package's code, and a patched package.json gains the install scripts it says.
      "**/.yarn/patches/**",
      // pnpm's (`pnpm patch-commit`: `pad@1.0.0.patch`) and patch-package's (`pad+1.0.0.patch`),
      // by the names they write: the next install applies one to that package's code.
      "**/patches/*@[0-9]*.patch",
      "**/patches/*+[0-9]*.patch",
      // Berry's unpacked packages (`unplug`, or those with build scripts) and its package archives, as
      // a zero-install repository commits them: the next install runs the unpacked ones' build
      // scripts and links both in as they are, with no registry fetch to compare them against.
      "**/.yarn/unplugged/**",
      "**/.yarn/cache/**",
      ".pnp.cjs",
      ".pnp.js",
      ".pnp.loader.mjs",
      ".pnpmfile.cjs",
      ".pnpmfile.mjs",
      "pnpmfile.js",
      "pnpm-workspace.yaml",
      "bunfig.toml",
      // Bun's binary lockfile: where each package comes from, in a form no reviewer can read.
      "bun.lockb",
      ".pypirc",
      "**/.bundle/**",
      // The package sources of NuGet, uv and Poetry, read from the project's directory upwards: a
      // source a proposal adds serves the next restore or sync its own copy of a package.
      "nuget.config",
      "uv.toml",
      "poetry.toml",
    ],
  },
  {
    family: "build tools and toolchains",
    patterns: [
      "**/.cargo/config*",
      "rust-toolchain",
      "rust-toolchain.toml",
      "**/.mvn/**",
      "mvnw",
      "mvnw.cmd",
      "**/gradle/wrapper/**",
      "gradlew",
      "gradlew.bat",
      // Bazel's flags (`--run_under`, `--action_env`) and Bazelisk's download URL and version;
      // MSBuild imports the nearest Directory.Build.* into every project, the editor's design-time
      // build included.
      ".bazelrc",
      ".bazeliskrc",
      ".bazelversion",
      "Directory.Build.props",
      "Directory.Build.targets",
      // React Native's: Xcode's build phases source it (and the ignored `.local` beside it) to pick
      // the node binary they run.
      "**/.xcode.env",
      "**/.xcode.env.local",
    ],
  },
  {
    family: "directory environments",
    patterns: [
      ".envrc",
      ".mise.toml",
      ".mise.*.toml",
      "mise.toml",
      "mise.*.toml",
      "**/.mise/**",
      "**/mise/config.toml",
      "**/.config/mise.toml",
      "**/.config/mise/**",
      ".tool-versions",
      // Version files that shell hooks (nvm, fnm, nodenv, pyenv, rbenv, jenv, sdkman, mise) read on
      // entering the directory, from it upwards: they pick, and may download, the binary that runs.
      ".nvmrc",
      ".node-version",
      ".python-version",
      ".ruby-version",
      ".java-version",
      ".sdkmanrc",
    ],
  },
  {
    // Configuration that is a module, which the tool imports and so runs: editor extensions load these
    // when the folder is opened (ESLint, Prettier, Stylelint, Tailwind CSS, Vitest, Jest, Playwright
    // and Svelte find the nearest copy for each file they show; Babel's is loaded by the ESLint and
    // Jest that use it), and lint-staged and commitlint run on every commit from
    // the hooks. Their data forms name the modules they load (the family below); lint-staged's holds
    // the commands a commit runs, so every form of it is refused.
    family: "tools the editor or a commit runs",
    patterns: [
      "eslint.config.*js",
      "eslint.config.*ts",
      ".eslintrc.js",
      ".eslintrc.cjs",
      "prettier.config.*js",
      "prettier.config.*ts",
      ".prettierrc.*js",
      ".prettierrc.*ts",
      "stylelint.config.*js",
      "stylelint.config.*ts",
      ".stylelintrc.*js",
      ".stylelintrc.*ts",
      "tailwind.config.*js",
      "tailwind.config.*ts",
      "vite.config.*js",
      "vite.config.*ts",
      "vitest.config.*js",
      "vitest.config.*ts",
      "vitest.workspace.*",
      "jest.config.*js",
      "jest.config.*ts",
      "playwright.config.*js",
      "playwright.config.*ts",
      "svelte.config.*js",
      "babel.config.*js",
      "babel.config.*ts",
      ".babelrc.*js",
      ".lintstagedrc*",
      "lint-staged.config.*",
      "commitlint.config.*js",
      "commitlint.config.*ts",
      ".commitlintrc.*js",
      ".commitlintrc.*ts",
    ],
  },
  {
    // The data forms (JSON, YAML, TOML) of the same tools' configuration name modules the tool
    // imports in turn, by path too (`"plugins": ["./x.mjs"]`, `extends`, `parser`, `setupFiles`):
    // with a file of the same proposal, one is code as a module form is. Data forms that load no
    // module of the tree (`biome.json`; `tsconfig.json`, whose server plugins are package names)
    // stay proposable.
    family: "tool configs that name the modules they load",
    patterns: [
      ".eslintrc",
      ".eslintrc.json",
      ".eslintrc.yaml",
      ".eslintrc.yml",
      ".prettierrc",
      ".prettierrc.json",
      ".prettierrc.json5",
      ".prettierrc.yaml",
      ".prettierrc.yml",
      ".prettierrc.toml",
      ".stylelintrc",
      ".stylelintrc.json",
      ".stylelintrc.yaml",
      ".stylelintrc.yml",
      ".babelrc",
      ".babelrc.json",
      "babel.config.json",
      "jest.config.json",
      ".commitlintrc",
      ".commitlintrc.json",
      ".commitlintrc.yaml",
      ".commitlintrc.yml",
    ],
  },
  {
    family: "editors and dev environments",
    patterns: [
      "**/.vscode/**",
      "*.code-workspace",
      "**/.idea/**",
      "**/.devcontainer/**",
      ".devcontainer.json",
      "**/.zed/**",
      "/.gitpod.yml",
    ],
  },
];
