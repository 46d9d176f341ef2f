export interface LoggedEvent {
  id: number;
  name: string;
  detail: string;
}

/** The reaction-* events the app's handlers received, newest first, announced politely. */
export function EventLog({
  title,
  empty,
  events,
}: {
  title: string;
  empty: string;
  events: LoggedEvent[];
}) {
  return (
    <section aria-labelledby="h-events">
      <h2 id="h-events">{title}</h2>
      {events.length === 0 && <p className="note">{empty}</p>}
      <ol role="log" aria-labelledby="h-events" reversed>
        {events.map((e) => (
          <li key={e.id} data-event={e.name}>
            <strong>{e.name}</strong> {e.detail}
          </li>
        ))}
      </ol>
    </section>
  );
}
