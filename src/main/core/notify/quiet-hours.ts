/**
 * Quiet hours in local time ("22:00" to "07:00", across midnight or not): when `now` falls inside
 * them, the time they end; else null. A warning waits until then, a critical alert does not.
 */
export function quietUntil(q: { from: string; to: string } | undefined, now: number): number | null {
  if (!q || q.from === q.to) return null;
  const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const [from, to] = [minutes(q.from), minutes(q.to)];
  const d = new Date(now);
  const m = d.getHours() * 60 + d.getMinutes();
  const inside = from < to ? m >= from && m < to : m >= from || m < to;
  if (!inside) return null;
  const end = new Date(now);
  end.setHours(Math.floor(to / 60), to % 60, 0, 0);
  // Local midnight may move with daylight saving: setHours on the next day's date finds the end.
  if (end.getTime() <= now) {
    end.setDate(end.getDate() + 1);
    end.setHours(Math.floor(to / 60), to % 60, 0, 0);
  }
  return end.getTime();
}
