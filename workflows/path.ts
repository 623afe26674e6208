/** Entry of the workflow bundle; resolved from here so it works from sources and from compiled output. */
export const workflowsPath = require.resolve('./index');
