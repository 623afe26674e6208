import type { Answer } from '../../api/types';

export type Segment = Answer<'/segments/{id}', 'get'>;
