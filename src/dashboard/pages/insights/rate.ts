/** A rate the API gives in percent of sent, two decimals, as a person reads it. */
export const rate = (value: number) => `${value.toFixed(value === 0 ? 0 : 1)}%`;
