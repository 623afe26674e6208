import type { Answer, RequestBody } from '../../api/types';

export type Template = Answer<'/templates/{id}', 'get'>;
export type TemplateType = Template['type'];
export type TemplateFields = RequestBody<'/templates', 'post'>;

export const TEMPLATE_TYPES: Array<{ value: TemplateType; label: string }> = [
  { value: 'MARKETING', label: 'Marketing' },
  { value: 'TRANSACTIONAL', label: 'Transactional' },
  { value: 'HEADLESS', label: 'Headless' },
];

export const typeLabel = (type: TemplateType) => TEMPLATE_TYPES.find((t) => t.value === type)?.label ?? type;
