// Live updates, one event stream per browser for all of this server's tabs.
//
// Browsers open at most six connections per host, and an EventSource holds one for as long
// as the tab lives: a seventh tab would never load. So one tab (the holder of a Web Lock)
// keeps the stream and passes every event to the others over a BroadcastChannel; when it
// closes, the lock passes to another tab, which opens the stream. Where Web Locks are not
// available (a page served over plain http on a non-loopback name), each tab keeps its own
// stream while visible and closes it while hidden.

const LOCK = "limpet-events";

export function connectLive({ onChange, onStatus }) {
  const channel = "BroadcastChannel" in window ? new BroadcastChannel(LOCK) : null;
  let role = "follower";
  let status = "connecting";
  let source = null;

  const setStatus = (value) => {
    status = value;
    onStatus(value, role);
    if (role === "leader" && channel) channel.postMessage({ type: "status", status });
  };

  function open() {
    source = new EventSource("/api/events");
    source.addEventListener("ready", () => {
      const missed = status === "offline" || status === "paused";  // what changed meanwhile is unknown
      setStatus("live");
      if (missed) {
        onChange(null);
        if (role === "leader" && channel) channel.postMessage({ type: "change", change: null });
      }
    });
    source.addEventListener("change", (event) => {
      const change = JSON.parse(event.data);
      onChange(change);
      if (role === "leader" && channel) channel.postMessage({ type: "change", change });
    });
    source.onerror = () => setStatus("offline");
  }

  function close() {
    if (source) source.close();
    source = null;
  }

  if (channel) {
    channel.onmessage = ({ data }) => {
      if (data.type === "change" && role !== "leader") onChange(data.change);
      else if (data.type === "status" && role !== "leader") { status = data.status; onStatus(status, role); }
      else if (data.type === "hello" && role === "leader") channel.postMessage({ type: "status", status });
    };
  }

  if (navigator.locks && channel) {
    document.body.dataset.stream = role;
    navigator.locks.request(LOCK, () => new Promise(() => {
      // Held until this tab goes away: then the browser grants the lock to the next tab.
      role = "leader";
      document.body.dataset.stream = role;
      if (status !== "connecting") status = "offline";  // taking over: catch up once connected
      open();
    }));
    channel.postMessage({ type: "hello" });
    return;
  }
  role = "own";
  document.body.dataset.stream = role;
  open();
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { close(); setStatus("paused"); } else if (!source) open();
  });
}
