// A small element builder: enough to keep views declarative without a framework.

export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export function announce(message) {
  const region = document.getElementById("announcer");
  // Clearing first makes screen readers repeat a message identical to the last one.
  region.textContent = "";
  requestAnimationFrame(() => { region.textContent = message; });
}
