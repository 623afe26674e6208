import type { AgentApi } from '../api';
import { automationForContact } from './automation-for-contact';
import { composed, type ComposedTool } from './composed-tool';
import { executionTimeline } from './execution-timeline';
import { explainEmail } from './explain-email';

/** The composed tools, every one read-only (docs/mcp.md "Composed tools"). */
export const composedTools = (api: AgentApi): ComposedTool[] => [
  composed(api, explainEmail),
  composed(api, automationForContact),
  composed(api, executionTimeline),
];
