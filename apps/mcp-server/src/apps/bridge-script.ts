/*
 * The bridge: the one script the app resource injects ahead of a component's own
 * (docs/mcp-apps.md, section 2). It speaks the MCP Apps view protocol (JSON-RPC over
 * `postMessage` with the host's window) on one side and the component contract
 * (docs/component-contract.md: cpReceive, cpSend, cpRoot) on the other, so a component written
 * for the host SDK runs unchanged inside a conversation. Hand-written plain JavaScript, kept as
 * text: it is served, never run here, and the ext-apps SDK's App class would weigh more than
 * most components.
 *
 * The protocol, in the order it happens:
 * - `ui/initialize` goes first; until its result arrives nothing else is sent (the component's
 *   cpSend calls wait in order); then `ui/notifications/initialized`.
 * - `hostContext.theme` and `hostContext.styles.variables`, from the result and from every
 *   `ui/notifications/host-context-changed`, set `<html data-theme>`, `color-scheme` and the
 *   variables on `:root`.
 * - `ui/notifications/tool-input` (its arguments) and then `ui/notifications/tool-result` (its
 *   structuredContent.data, unless it is an error) become the data `cpReceive` gets: called in a
 *   microtask once the component assigns it, and again on each new data, as the host SDK does.
 * - The height follows the content (measured as the ext-apps SDK does) and is sent as
 *   `ui/notifications/size-changed` only when it changed, until the component sends `cp:size`
 *   itself: from then on its heights are sent, rounded, and measuring stops.
 * - `ui/resource-teardown` is answered with `{}`, `ping` with `{}`, other requests with
 *   "method not found".
 * - Not framed (opened by itself), it sends and accepts nothing; the globals still exist.
 */

/** What the resource tells its bridge: the app's title (for messages) and its action → tool map. */
export interface BridgeConfig {
  readonly title: string;
  readonly actionTools: Readonly<Record<string, string>>;
}

/** The view protocol version the bridge speaks. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** Characters of an action's payload quoted in the message to the conversation. */
export const MESSAGE_PAYLOAD_CHARS = 500;

const BRIDGE = `(function (config) {
  'use strict';
  var host = window.parent;
  var root = document.documentElement;
  var nextId = 1;
  var initId = 0;
  var ready = false;
  var waiting = [];
  var receive;
  var data;
  var hasData = false;
  var queued = false;
  var lastHeight = -1;
  var measuring = true;
  // Opened by itself (no host frames it), it would talk to itself: it stays silent instead.
  var framed = host !== window;
  var post = function (message) {
    message.jsonrpc = '2.0';
    if (framed) host.postMessage(message, '*');
  };
  var send = function (message) {
    if (ready) post(message);
    else waiting.push(message);
  };
  var request = function (method, params) {
    send({ id: nextId++, method: method, params: params });
  };
  var deliver = function () {
    queued = false;
    if (hasData && typeof receive === 'function') receive(data);
  };
  var setData = function (next) {
    data = next;
    hasData = true;
    deliver();
  };
  var sendHeight = function (height) {
    if (!(height >= 0) || height === lastHeight) return;
    lastHeight = height;
    send({ method: 'ui/notifications/size-changed', params: { height: height } });
  };
  var measure = function () {
    if (!measuring) return;
    var before = root.style.height;
    root.style.height = 'max-content';
    var height = Math.ceil(root.getBoundingClientRect().height);
    root.style.height = before;
    sendHeight(height);
  };
  var frame = 0;
  var remeasure = function () {
    if (frame || !measuring) return;
    frame = requestAnimationFrame(function () {
      frame = 0;
      measure();
    });
  };
  var watchSize = function () {
    if (!document.body) {
      document.addEventListener('DOMContentLoaded', watchSize);
      return;
    }
    var observer = new ResizeObserver(remeasure);
    observer.observe(root);
    observer.observe(document.body);
    remeasure();
  };
  var applyContext = function (context) {
    if (!context || typeof context !== 'object') return;
    if (context.theme === 'light' || context.theme === 'dark') {
      root.setAttribute('data-theme', context.theme);
      root.style.colorScheme = context.theme;
    }
    var variables = context.styles && context.styles.variables;
    if (variables && typeof variables === 'object') {
      Object.keys(variables).forEach(function (name) {
        var value = variables[name];
        if (name.indexOf('--') === 0 && typeof value === 'string') root.style.setProperty(name, value);
      });
    }
  };
  var describe = function (payload) {
    var text;
    try {
      text = JSON.stringify(payload === undefined ? null : payload);
    } catch (error) {
      text = '(a payload that is not JSON)';
    }
    return text.length > ${MESSAGE_PAYLOAD_CHARS} ? text.slice(0, ${MESSAGE_PAYLOAD_CHARS - 1}) + '\\u2026' : text;
  };

  window.cpRoot = document;
  window.cpSend = function (action, payload) {
    if (typeof action !== 'string' || !action) throw new TypeError('cpSend(action, payload): action must be a non-empty string');
    if (action === 'cp:size') {
      var height = payload && Number(payload.height);
      if (!(height >= 0)) return;
      measuring = false;
      sendHeight(Math.round(height));
      return;
    }
    if (action.indexOf('cp:') === 0) return;
    if (Object.prototype.hasOwnProperty.call(config.actionTools, action)) {
      var args = payload && typeof payload === 'object' && !Array.isArray(payload) ? payload : {};
      request('tools/call', { name: config.actionTools[action], arguments: args });
      return;
    }
    var text = config.title + ' sent the action "' + action + '" with ' + describe(payload) + '.';
    request('ui/message', { role: 'user', content: [{ type: 'text', text: text }] });
  };
  Object.defineProperty(window, 'cpReceive', {
    configurable: true,
    get: function () {
      return receive;
    },
    set: function (next) {
      receive = next;
      if (!queued) queueMicrotask(deliver);
      queued = true;
    },
  });

  window.addEventListener('message', function (event) {
    var message = event.data;
    if (!framed || event.source !== host || !message || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
    var params = message.params || {};
    if (message.method === undefined) {
      if (message.id !== initId || ready) return;
      ready = true;
      if (message.result) applyContext(message.result.hostContext);
      post({ method: 'ui/notifications/initialized', params: {} });
      waiting.splice(0).forEach(post);
      if (measuring) watchSize();
      return;
    }
    if (message.id !== undefined) {
      if (message.method === 'ui/resource-teardown' || message.method === 'ping') post({ id: message.id, result: {} });
      else post({ id: message.id, error: { code: -32601, message: 'Method not found: ' + String(message.method).slice(0, 100) } });
      return;
    }
    if (message.method === 'ui/notifications/tool-input') setData(params.arguments || {});
    else if (message.method === 'ui/notifications/tool-result') {
      var content = params.structuredContent;
      if (!params.isError && content && typeof content === 'object' && 'data' in content) setData(content.data);
    } else if (message.method === 'ui/notifications/host-context-changed') applyContext(params);
  });

  initId = nextId++;
  post({
    id: initId,
    method: 'ui/initialize',
    params: { appInfo: { name: 'component-platform-bridge', version: '1' }, appCapabilities: {}, protocolVersion: '${APPS_PROTOCOL_VERSION}' },
  });
})`;

/**
 * JSON that cannot end the script element it sits in: `<` is escaped (so no `</script`, no
 * `<!--`), and the two line separators JavaScript once refused in strings.
 */
export const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The bridge's source for one app, to be the text of a `<script>` element. */
export const bridgeScript = (config: BridgeConfig): string =>
  `${BRIDGE}(${scriptSafeJson({ title: config.title, actionTools: config.actionTools })});`;
