import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { StepConfigs, StepType } from '../../../../workflows/automation/definition';
import type { Subject } from '../../usage/references';

/**
 * The API side of a step type: its config as requests give it and responses show it, what the config must
 * fit in the project, and what project data it names. One file per type in this folder; index.ts lists them.
 */
export interface ApiStepType<T extends StepType> {
  /** The config as requests give it; a config that does not parse is a 422 naming the fields. */
  config: z.ZodType;
  /** The config as responses show it, when it differs from `config`. */
  output?: z.ZodType;
  /**
   * Reads a config that can only be judged against the project, instead of `config` (CONDITION: a filter
   * tree, checked strictly against the project's fields, is a 400 naming the problem).
   */
  parse?(em: EntityManager, projectId: string, raw: unknown): Promise<StepConfigs[T]>;
  /** What a well-formed config must fit in the project; throws the 400 when it does not. */
  check?(em: EntityManager, projectId: string, config: StepConfigs[T]): Promise<void>;
  /**
   * For a step that waits on a timer: SQL for when it moves on by itself, given SQL for its start (a
   * timestamptz) and its config (jsonb); GET /activity/upcoming orders waiting executions by it.
   */
  resumesAt?(started: string, config: string): string;
  /** Whether the config names the contact field or event (GET …/usage, field and event deletion). */
  references?(config: StepConfigs[T], subject: Subject): boolean;
}
