// The dashboard's script on every page, and optional: Copy buttons next to a secret shown once
// (data-copy: a field's value) and next to a command (data-copy-text: an element's text). Without
// JavaScript the buttons stay hidden and everything else works.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  if (!field || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(field.value);
    button.textContent = 'Copied';
  });
}
for (const button of document.querySelectorAll('button[data-copy-text]')) {
  const source = document.getElementById(button.dataset.copyText);
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(source.textContent);
    button.textContent = 'Copied';
  });
}
