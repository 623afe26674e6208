/**
 * The layer picture of docs/architecture.md, checked: every import runs downward.
 *
 *   composition  src/app, src/main, src/bootstrap.ts (owns every list; may import anything)
 *   activities   activities/                        (thin wrappers over modules)
 *   modules      src/modules/<feature>
 *   temporal     src/temporal but client.ts         (Temporal client code: starts, signals, bundles)
 *   workflows    workflows/                         (deterministic; imports only workflows/, the SDK and types:
 *                                                   the rule workflow-sandbox)
 *   framework    src/http, src/db, src/auth, src/deps.ts, src/temporal/client.ts (the connection)
 *   leaves       src/crypto, src/dns, src/mail, src/design (the design tokens), src/config.ts, src/logger.ts,
 *                src/escape-html.ts, src/version.ts
 *
 * Beside them, src/dashboard is the browser app (docs/dashboard.md): it knows the server only through the HTTP
 * API and the types generated from /openapi.json (the rule dashboard-apart), and shares only the design tokens
 * and brand mark of src/design (plain data) with the pages the server renders.
 *
 * Type-only imports count for cycles and layers alike: a type names a dependency just as a value does. The one
 * exception is workflow code naming its activities' signatures (`import type * as activities`), the SDK's idiom.
 * The exceptions below are imports that still break a rule, each with the change (and the part of issue 12) that
 * removes it; the list only shrinks.
 */
const LEAVES = '^src/(crypto|dns|mail|design)/|^src/(config|logger|escape-html|version)[.]ts$';
const FRAMEWORK = '^src/(http|db|auth)/|^src/deps[.]ts$|^src/temporal/client[.]ts$';
const WORKFLOWS = '^workflows/';
const TEMPORAL = '^src/temporal/(?!client[.]ts$)';
const MODULES = '^src/modules/';
const ACTIVITIES = '^activities/';
const COMPOSITION = '^src/(main|app)/|^src/bootstrap[.]ts$';

const above = (...layers) => layers.join('|');

const EXCEPTIONS = {
  // layers (left): the request context types its project, member role and user with their entities; a small
  // identity type in src/http would end it.
  contextTypes: '^src/modules/(projects|users)/entities[.]ts$',
};

const layer = (name, from, forbidden, fromNot) => ({
  name,
  severity: 'error',
  comment: `${name}: a layer imports only the layers below it`,
  from: { path: from, pathNot: fromNot },
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
    {
      name: 'errors-leaf',
      severity: 'error',
      comment: 'the error envelope (src/http/errors.ts) is a leaf every layer may throw from: it imports nothing of the project',
      from: { path: '^src/http/errors[.]ts$' },
      to: { path: '^(src|workflows|activities)/' },
    },
    {
      name: 'links-low',
      severity: 'error',
      comment: 'the links put into emails are one low module: values only from leaves and the framework',
      from: { path: '^src/modules/links/' },
      to: {
        path: above(WORKFLOWS, TEMPORAL, MODULES, ACTIVITIES, COMPOSITION),
        pathNot: '^src/modules/links/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'dashboard-apart',
      severity: 'error',
      comment:
        'the dashboard runs in the browser: it imports only src/dashboard, the design tokens (src/design) and its packages, never the server',
      from: { path: '^src/dashboard/' },
      to: { path: '^(src|workflows|activities|scripts|test|bench)/', pathNot: '^src/(dashboard|design)/' },
    },
    {
      name: 'server-ignores-dashboard',
      severity: 'error',
      comment: 'the server serves the built dashboard as files; no server code imports it',
      from: { path: '^(src|workflows|activities)/', pathNot: '^src/dashboard/' },
      to: { path: '^src/dashboard/' },
    },
    layer('leaves-import-up', LEAVES, above(FRAMEWORK, WORKFLOWS, TEMPORAL, MODULES, ACTIVITIES, COMPOSITION)),
    layer('framework-imports-up', FRAMEWORK, above(WORKFLOWS, TEMPORAL, MODULES, ACTIVITIES, COMPOSITION), '^src/http/context[.]ts$'),
    {
      name: 'context-imports-up',
      severity: 'error',
      comment: 'the request context, like the framework, imports no module but the entity types of its identity',
      from: { path: '^src/http/context[.]ts$' },
      to: { path: above(WORKFLOWS, TEMPORAL, MODULES, ACTIVITIES, COMPOSITION), pathNot: EXCEPTIONS.contextTypes },
    },
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
