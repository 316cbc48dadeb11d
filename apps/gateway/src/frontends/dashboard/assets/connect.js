// The guided connection page (pages/connect.ts): the agent's status kept current without a reload
// (its copy buttons are dashboard.js's). The fragment comes from the dashboard itself, rendered and
// escaped on the server like every page; it replaces the live part only when it changed, so a
// screen reader hears a change once. Without JavaScript the page still works: reload to refresh.
const live = document.getElementById('live');
if (live) {
  const every = Number(live.dataset.pollMs) || 2000;
  let last = live.innerHTML.trim();
  const refresh = async () => {
    try {
      const answer = await fetch(live.dataset.src, { credentials: 'same-origin', cache: 'no-store' });
      if (answer.ok) {
        const html = (await answer.text()).trim();
        if (html !== last) {
          live.innerHTML = html;
          last = html;
        }
      }
    } catch {
      // Offline for a moment: the next turn tries again.
    }
    setTimeout(refresh, every);
  };
  setTimeout(refresh, every);
}
