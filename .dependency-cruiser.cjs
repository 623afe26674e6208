/**
 * The layer picture of docs/architecture.md, checked: every import runs downward.
 *
 *   composition  src/main, src/bootstrap.ts        (owns every list; may import anything)
 *   activities   activities/                        (thin wrappers over modules)
 *   modules      src/modules/<feature>
 *   temporal     src/temporal                       (Temporal client code: starts, signals, bundles)
 *   workflows    workflows/                         (deterministic; imports only workflows/, the SDK and types:
 *                                                   the rule workflow-sandbox)
 *   framework    src/http, src/db, src/auth, src/deps.ts
 *   leaves       src/crypto, src/dns, src/mail, src/config.ts, src/logger.ts, src/escape-html.ts, src/version.ts
 *
 * Type-only imports count for cycles and layers alike: a type names a dependency just as a value does. The one
 * exception is workflow code naming its activities' signatures (`import type * as activities`), the SDK's idiom.
 * KNOWN_UPWARD lists the imports that still run upward, each with the change that removes it; the list only
 * shrinks.
 */
const LEAVES = '^src/(crypto|dns|mail)/|^src/(config|logger|escape-html|version)[.]ts$';
const FRAMEWORK = '^src/(http|db|auth)/|^src/deps[.]ts$';
const WORKFLOWS = '^workflows/';
const TEMPORAL = '^src/temporal/';
const MODULES = '^src/modules/';
const ACTIVITIES = '^activities/';
const COMPOSITION = '^src/main/|^src/bootstrap[.]ts$';

const above = (...layers) => layers.join('|');

/** Upward imports that remain, by the file that imports; each is removed by the named change. */
const KNOWN_UPWARD = [];

const layer = (name, from, forbidden) => ({
  name,
  severity: 'error',
  comment: `${name}: a layer imports only the layers below it`,
  from: { path: from, pathNot: KNOWN_UPWARD.length ? KNOWN_UPWARD.join('|') : undefined },
  to: { path: forbidden },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no file-level import cycle, type-only imports included',
      from: {},
      to: { circular: true },
    },
    {
      name: 'workflow-sandbox',
      severity: 'error',
      comment:
        'workflow files are bundled for the deterministic sandbox: they import workflows/**, @temporalio/workflow, @temporalio/common and types only',
      from: { path: WORKFLOWS, pathNot: '^workflows/path[.]ts$' },
      to: {
        pathNot: '^workflows/|^node_modules/@temporalio/(workflow|common)/',
        dependencyTypesNot: ['type-only', 'type-import'],
      },
    },
    layer('leaves-import-up', LEAVES, above(FRAMEWORK, WORKFLOWS, TEMPORAL, MODULES, ACTIVITIES, COMPOSITION)),
    layer('framework-imports-up', FRAMEWORK, above(WORKFLOWS, TEMPORAL, MODULES, ACTIVITIES, COMPOSITION)),
    layer('temporal-imports-up', TEMPORAL, above(MODULES, ACTIVITIES, COMPOSITION)),
    layer('modules-import-up', MODULES, above(ACTIVITIES, COMPOSITION)),
    layer('activities-import-up', ACTIVITIES, COMPOSITION),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
