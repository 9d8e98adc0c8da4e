/** A score rounded to three decimals, as the engine's answers report them. */
export const round = (n: number) => Math.round(n * 1000) / 1000;
