/** What privacy mode shows instead of an amount. */
export const MASK = '•••••';

/**
 * An alert's text with its amounts masked (privacy mode, for alerts about the user's own
 * managers): "$1,234.56" and "$1.2M" become "$•••••", "791 USDC" becomes "••••• USDC". Ratios,
 * thresholds, percentages and clock times ("2:02 PM EST") stay.
 */
export function maskAmounts(text: string): string {
  return text
    .replace(/\$\d[\d,]*(?:\.\d+)?[KMB]?/g, `$${MASK}`)
    .replace(/(?<![\w.:])\d[\d,]*(?:\.\d+)?(?= [A-Z][A-Z0-9]{1,9}\b)/g, MASK);
}
