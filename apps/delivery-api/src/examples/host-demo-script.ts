/*
 * The demo page's own script (a module, run before the SDK's): logs the element's
 * events and the variant shown, sends the data box to the element, and passes it the
 * user's key and attributes. Static text: the page passes
 * nothing into it, so there is nothing to escape.
 */
export const HOST_DEMO_SCRIPT = `
const element = document.querySelector('cp-component');
if (element) {
  const log = document.getElementById('log');
  const note = (kind, detail) => {
    const entry = document.createElement('li');
    const time = new Date().toLocaleTimeString();
    let text;
    try { text = JSON.stringify(detail); } catch { text = String(detail); }
    entry.textContent = time + '  ' + kind + '  ' + text;
    log.prepend(entry);
  };
  for (const type of ['cp-load', 'cp-error', 'cp-action']) element.addEventListener(type, (event) => note(type, event.detail));
  element.addEventListener('cp-load', (event) => {
    document.getElementById('shown').textContent = event.detail.variantName + ' (' + event.detail.variantId + ')';
  });
  const key = document.getElementById('user-key');
  const attributes = document.getElementById('user-attributes');
  const userStatus = document.getElementById('user-status');
  // Set as the element's attributes here, never put in the page's URL: the key and attributes stay in the browser.
  document.getElementById('user-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = attributes.value.trim();
    try {
      if (text) JSON.parse(text);
    } catch (error) {
      userStatus.textContent = 'Not applied: the attributes are not JSON (' + error.message + ').';
      attributes.setAttribute('aria-invalid', 'true');
      return;
    }
    attributes.removeAttribute('aria-invalid');
    if (key.value) element.setAttribute('key', key.value);
    else element.removeAttribute('key');
    if (text) element.setAttribute('attributes', text);
    else element.removeAttribute('attributes');
    userStatus.textContent = 'Applied at ' + new Date().toLocaleTimeString() + ': the element picks again.';
  });
  const box = document.getElementById('data');
  const status = document.getElementById('data-status');
  document.getElementById('data-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    let data;
    try {
      data = JSON.parse(box.value);
    } catch (error) {
      status.textContent = 'Not sent: the data is not JSON (' + error.message + ').';
      box.setAttribute('aria-invalid', 'true');
      return;
    }
    box.removeAttribute('aria-invalid');
    // A property set before the element is upgraded would hide the SDK's setter.
    await customElements.whenDefined('cp-component');
    element.data = data;
    status.textContent = 'Sent at ' + new Date().toLocaleTimeString() + '.';
  });
}
`;
