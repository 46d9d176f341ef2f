// Dates as the spec shows them: YY.MM.DD, with the time (24-hour) where a moment matters, in the
// viewer's own time zone (or the one given). The same in English and Korean.

const pad = (n: number) => String(n).padStart(2, '0');

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function partsOf(date: Date, timeZone?: string): Parts {
  if (!timeZone) {
    return {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      hour: date.getHours(),
      minute: date.getMinutes(),
      second: date.getSeconds(),
    };
  }
  const values: Record<string, number> = {};
  for (const part of new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(date)) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  return {
    year: values.year ?? 0,
    month: values.month ?? 0,
    day: values.day ?? 0,
    hour: values.hour ?? 0,
    minute: values.minute ?? 0,
    second: values.second ?? 0,
  };
}

export interface DateFormatOptions {
  /** none: YY.MM.DD; minutes: YY.MM.DD HH:mm; seconds: YY.MM.DD HH:mm:ss. */
  time?: 'none' | 'minutes' | 'seconds';
  /** An IANA time zone; the browser's when absent. */
  timeZone?: string;
}

/** "26.11.23", "26.11.23 09:05" or "26.11.23 09:05:42"; an unreadable value is returned as is. */
export function formatDate(value: string | Date, options: DateFormatOptions = {}): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const p = partsOf(date, options.timeZone);
  const day = `${pad(p.year % 100)}.${pad(p.month)}.${pad(p.day)}`;
  if (!options.time || options.time === 'none') return day;
  const time = `${pad(p.hour)}:${pad(p.minute)}`;
  return options.time === 'seconds' ? `${day} ${time}:${pad(p.second)}` : `${day} ${time}`;
}

/** A calendar day given as YYYY-MM-DD (no time zone): "26.11.23". */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return m ? `${m[1]!.slice(2)}.${m[2]}.${m[3]}` : day;
}
