/* pdn game viewer: steps through a game drawn as pdn.views.svgboard draws boards.
   Data: the JSON in each .pdn-viewer's script.pv-data (pdn.views.viewer.game_data). */
(function () {
  "use strict";
  var SQUARE = 10, MOVE = "#1e6fd9", HIGHLIGHT = "#f7ec5e";
  var PIECE = { w: "wm", W: "wk", b: "bm", B: "bk" };
  var viewers = {}, active = null;

  function num(v) { return (Math.round(v * 10) / 10).toString(); }

  function Viewer(root) {
    this.root = root;
    this.data = JSON.parse(root.querySelector("script.pv-data").textContent);
    this.flip = false;
    var nodes = this.data.nodes, kids = nodes.map(function () { return []; });
    nodes.forEach(function (node, i) { if (node.p >= 0 && node.b !== null) kids[node.p].push(i); });
    this.kids = kids;
    this.board = root.querySelector(".pv-board");
    this.status = root.querySelector(".pv-status");
    this.moves = root.querySelectorAll(".pv-move");
    this.node = -1;
    var self = this;
    root.addEventListener("click", function (event) {
      var target = event.target.closest("[data-node], [data-act]");
      active = self;
      if (!target) return;
      if (target.dataset.act) self.act(target.dataset.act);
      else self.go(+target.dataset.node);
    });
    var start = +root.dataset.node;
    if (start >= 0) this.go(start);
  }

  Viewer.prototype.go = function (index) {
    var node = this.data.nodes[index];
    if (!node || node.b === null) {
      this.status.textContent = "this move was not replayed: see the findings";
      return;
    }
    this.node = index;
    this.root.dataset.node = index;
    this.board.dataset.fen = this.fen(node);
    this.board.dataset.ply = node.y;
    this.draw(node);
    var shown = null;
    for (var i = 0; i < this.moves.length; i++) {
      var on = +this.moves[i].dataset.node === index;
      this.moves[i].classList.toggle("current", on);
      if (on && !shown) shown = this.moves[i];
    }
    if (shown) {
      var list = this.root.querySelector(".pv-moves");
      var top = shown.offsetTop;  // the list is positioned: its moves' offsetParent
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
    var said = shown && shown.nextElementSibling && shown.nextElementSibling.classList.contains("pv-finding");
    var words = node.y ? "ply " + node.y + (shown ? " · " + shown.textContent : "") : "start";
    this.status.textContent = words + (said ? " · " + shown.nextElementSibling.textContent : "");
  };

  Viewer.prototype.fen = function (node) {
    // as pdn.engine.position.Position.fen writes it: side to move, White, Black, kings with K
    var sides = { w: [], b: [] };
    this.data.fenSquares.forEach(function (entry) {
      var letter = node.b.charAt(entry[0] - 1), side = letter.toLowerCase();
      if (sides[side]) sides[side].push((letter === side ? "" : "K") + entry[1]);
    });
    return node.t + ":W" + sides.w.join(",") + ":B" + sides.b.join(",");
  };

  Viewer.prototype.draw = function (node) {
    var data = this.data, corners = this.flip ? data.flipped : data.corners;
    var parts = ['<use href="#' + data.boards[this.flip ? 1 : 0] + '"/>'];
    var path = node.m;
    if (path.length) {
      [path[0], path[path.length - 1]].forEach(function (square) {
        var c = corners[square - 1];
        parts.push('<rect class="hl" x="' + c[0] + '" y="' + c[1] + '" width="10" height="10" fill="' +
          HIGHLIGHT + '" fill-opacity=".55"/>');
      });
    }
    for (var i = 0; i < node.b.length; i++) {
      var letter = node.b[i];
      if (letter === ".") continue;
      var c = corners[i];
      parts.push('<use href="#pdn-' + PIECE[letter] + '" x="' + c[0] + '" y="' + c[1] +
        '" data-square="' + (i + 1) + '" data-piece="' + letter + '"/>');
    }
    var before = node.p >= 0 ? data.nodes[node.p].b : "";
    node.c.slice().sort(function (a, b) { return a - b; }).forEach(function (square) {
      var c = corners[square - 1], taken = before.charAt(square - 1);
      var a = c[0] + 2.2, b = c[0] + SQUARE - 2.2, d = c[1] + 2.2, e = c[1] + SQUARE - 2.2;
      if (PIECE[taken]) {  // the captured piece, faded, under its cross
        parts.push('<use href="#pdn-' + PIECE[taken] + '" x="' + c[0] + '" y="' + c[1] +
          '" opacity=".4" data-taken="' + taken + '"/>');
      }
      parts.push('<path class="captured" data-captured="' + square + '" d="M' + num(a) + " " + num(d) + "L" +
        num(b) + " " + num(e) + "M" + num(b) + " " + num(d) + "L" + num(a) + " " + num(e) +
        '" stroke="' + MOVE + '" stroke-width="1.2" stroke-linecap="round"/>');
    });
    if (path.length) parts.push(arrow(path, corners));
    var svg = this.board.querySelector("svg");
    if (!svg) {
      this.board.innerHTML = '<svg class="pdn-board" viewBox="0 0 ' + data.size[0] + " " + data.size[1] +
        '" role="img" aria-label="' + data.variant + ' board"></svg>';
      svg = this.board.querySelector("svg");
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.innerHTML = parts.join("");
  };

  function arrow(path, corners) {
    var points = path.map(function (square) {
      var c = corners[square - 1];
      return [c[0] + SQUARE / 2, c[1] + SQUARE / 2];
    });
    var last = points[points.length - 1], before = points[points.length - 2];
    if (points.length < 2 || (last[0] === before[0] && last[1] === before[1])) {
      return '<circle class="arrow" data-kind="move" cx="' + num(points[0][0]) + '" cy="' + num(points[0][1]) +
        '" r="4.4" fill="none" stroke="' + MOVE + '" stroke-width="1.3"/>';
    }
    var head = 4.2, length = Math.hypot(last[0] - before[0], last[1] - before[1]);
    var ux = (last[0] - before[0]) / length, uy = (last[1] - before[1]) / length;
    var shaft = points.slice(0, -1).concat([[last[0] - ux * head * 0.8, last[1] - uy * head * 0.8]]);
    var base = [last[0] - ux * head, last[1] - uy * head], half = head * 0.55;
    var tip = [last, [base[0] - uy * half, base[1] + ux * half], [base[0] + uy * half, base[1] - ux * half]];
    function list(items) { return items.map(function (p) { return num(p[0]) + "," + num(p[1]); }).join(" "); }
    return '<g class="arrow" data-kind="move" data-path="' + path.join(" ") + '" fill="' + MOVE + '" stroke="' + MOVE +
      '" opacity=".85"><polyline points="' + list(shaft) + '" fill="none" stroke-width="1.3" ' +
      'stroke-linecap="round" stroke-linejoin="round"/><polygon points="' + list(tip) + '" stroke="none"/></g>';
  }

  Viewer.prototype.siblings = function (index) {
    var parent = this.data.nodes[index].p;
    return parent >= 0 ? this.kids[parent] : [index];
  };

  Viewer.prototype.act = function (act) {
    var index = this.node, nodes = this.data.nodes, kids = this.kids;
    if (index < 0) return;
    if (act === "back" && nodes[index].p >= 0) this.go(nodes[index].p);
    else if (act === "forward" && kids[index].length) this.go(kids[index][0]);
    else if (act === "first") {
      while (nodes[index].p >= 0) index = nodes[index].p;
      this.go(index);
    } else if (act === "last") {
      while (kids[index].length) index = kids[index][0];
      this.go(index);
    } else if (act === "down") {
      var siblings = this.siblings(index), at = siblings.indexOf(index);
      if (at + 1 < siblings.length) this.go(siblings[at + 1]);
      else if (kids[index].length > 1) this.go(kids[index][1]);
    } else if (act === "up") {
      // out of the variation: back to the move it is an alternative to
      while (nodes[index].p >= 0 && this.siblings(index)[0] === index) index = nodes[index].p;
      if (nodes[index].p >= 0) this.go(this.siblings(index)[0]);
    } else if (act === "flip") {
      this.flip = !this.flip;
      this.draw(nodes[index]);
    } else if (act === "copy") this.copy();
    else if (act === "download") this.download();
  };

  Viewer.prototype.say = function (words) {
    var said = this.root.querySelector(".pv-said");
    said.textContent = words;
    setTimeout(function () { said.textContent = ""; }, 2500);
  };

  Viewer.prototype.copy = function () {
    var text = this.data.pdn, self = this;
    function fallback() {
      var area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (error) { done = false; }
      document.body.removeChild(area);
      self.say(done ? "PDN copied" : "copy refused by the browser");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { self.say("PDN copied"); }, fallback);
    } else fallback();
  };

  Viewer.prototype.download = function () {
    var link = document.createElement("a");
    var name = this.data.file.split(/[\\/]/).pop();
    var stem = name.replace(/\.pdn$/i, "").replace(/[^\w.-]+/g, "_");
    if (/^</.test(name) || !/[A-Za-z0-9]/.test(stem)) stem = "game";  // <stdin>
    link.href = URL.createObjectURL(new Blob([this.data.pdn], { type: "application/x-pdn" }));
    link.download = stem + "-" + this.data.game + ".pdn";
    document.body.appendChild(link);
    link.click();
    document.body.removeChild(link);
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
  };

  var KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last",
    ArrowUp: "up", ArrowDown: "down", f: "flip", F: "flip" };

  function visible(viewer) {  // shown, and at least partly on the screen
    var box = viewer.root.getBoundingClientRect();
    return viewer.root.offsetParent !== null && box.bottom > 0 && box.top < window.innerHeight;
  }

  document.addEventListener("keydown", function (event) {
    var act = KEYS[event.key], target = event.target;
    if (!act || event.ctrlKey || event.metaKey || event.altKey) return;
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var viewer = active && visible(active) ? active : null;
    if (!viewer) {
      for (var id in viewers) if (visible(viewers[id])) { viewer = viewers[id]; break; }
    }
    if (!viewer) return;
    event.preventDefault();
    viewer.act(act);
  });

  function open(id, ply) {
    var viewer = viewers[id];
    if (!viewer) return false;
    var mainline = viewer.data.mainline;
    if (mainline.length) viewer.go(mainline[Math.max(0, Math.min(ply || 0, mainline.length - 1))]);
    active = viewer;
    viewer.root.focus({ preventScroll: true });
    return true;
  }

  function fromHash() {
    var hash = decodeURIComponent(location.hash.slice(1)), match = /^ply=(\d+)$/.exec(hash);
    if (match) {
      for (var id in viewers) return open(id, +match[1]);
    }
    match = /^(.+?)(?::(\d+))?$/.exec(hash);
    if (match && viewers[match[1]]) {
      document.dispatchEvent(new CustomEvent("pdn-viewer-show", { detail: match[1] }));
      open(match[1], +(match[2] || 0));
    }
  }

  function picker() {
    // a page of several games: one shown at a time, chosen in select.pv-picker
    var select = document.querySelector("select.pv-picker");
    if (!select) return;
    function show(id) {
      for (var other in viewers) viewers[other].root.hidden = other !== id;
      select.value = id;
      active = viewers[id] || null;
    }
    select.addEventListener("change", function () {
      show(select.value);
      select.blur();
      if (active) active.root.focus({ preventScroll: true });
    });
    document.addEventListener("pdn-viewer-show", function (event) { show(event.detail); });
    show(select.value);
  }

  function start() {
    var roots = document.querySelectorAll(".pdn-viewer");
    for (var i = 0; i < roots.length; i++) viewers[roots[i].id] = new Viewer(roots[i]);
    picker();
    fromHash();
  }

  function attach(root) {  // a viewer put on the page after it loaded (the report's dialog)
    viewers[root.id] = new Viewer(root);
    return viewers[root.id];
  }

  window.PdnViewer = { open: open, attach: attach, viewers: viewers };
  window.addEventListener("hashchange", fromHash);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
