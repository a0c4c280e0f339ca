// Routes the URL fragment to a view; each view returns a function that stops its streams.

import { setToken, token } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { roomView, roomsView } from "./rooms.js";
import { runView } from "./run.js";

const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
let stopCurrent = () => {};

function setCrumbs(trail) {
  replaceChildren(crumbs, trail.map(([label, href]) => h("li", {},
    href ? h("a", { href }, label) : h("span", { "aria-current": "page" }, label))));
}

function route() {
  stopCurrent();
  const path = location.hash.replace(/^#/, "") || "/";
  const run = path.match(/^\/runs\/(\d+)$/);
  const room = path.match(/^\/rooms\/([^/]+)$/);
  if (run) stopCurrent = runView(main, Number(run[1]), setCrumbs);
  else if (room) stopCurrent = roomView(main, decodeURIComponent(room[1]), setCrumbs);
  else stopCurrent = roomsView(main, setCrumbs);
  // A route change is a new page to a screen reader: move focus to its heading.
  (main.querySelector("h1") || main).focus({ preventScroll: false });
}

// A room token, when the server requires one (TICKMARK_AUTH): kept in this browser only.
const tokenField = document.getElementById("token");
tokenField.value = token();
tokenField.addEventListener("change", () => { setToken(tokenField.value); route(); });

addEventListener("hashchange", route);
route();
