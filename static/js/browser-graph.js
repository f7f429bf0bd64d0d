/* The tier browser's graph tab (review/templates/review/browser/partials/_neighbourhood.html):
 * draws an entity's neighbourhood as an SVG from the JSON the page carries
 * (`{{ graph|json_script:"graph-data" }}`): the entity in the centre, the others on rings
 * by distance, coloured by type (CSS classes bt-type-*), edges labelled with the
 * relationship type. The layout is deterministic: the same data draws the same picture.
 * Names go into text nodes (textContent), never into markup. Also closes the search panel.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var WIDTH = 720;
  var HEIGHT = 460;
  var RADIUS = { centre: 14, node: 10 };

  function el(name, attrs, text) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs || {}).forEach(function (key) {
      node.setAttribute(key, String(attrs[key]));
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function typeClass(type) {
    return "bt-type-" + String(type || "other").toLowerCase().replace(/[^a-z]/g, "");
  }

  function shorten(name, max) {
    name = String(name);
    return name.length > max ? name.slice(0, max - 1) + "\u2026" : name;
  }

  function byName(a, b) {
    return (a.type + a.name).localeCompare(b.type + b.name) || a.id - b.id;
  }

  /* Centre + rings: ring 1 evenly spaced (by type, then name); every further ring ordered
   * by the mean angle of its neighbours on the ring inside it, then evenly spaced from the
   * first one's angle, so children sit near their parents. */
  function layout(data) {
    var cx = WIDTH / 2;
    var cy = HEIGHT / 2;
    var maxRing = 0;
    data.nodes.forEach(function (n) { maxRing = Math.max(maxRing, n.distance); });
    var step = Math.min(WIDTH, HEIGHT) / 2 / (maxRing + 0.6);
    var pos = {};
    var angle = {};
    var neighbours = {};
    data.edges.forEach(function (e) {
      (neighbours[e.from] = neighbours[e.from] || []).push(e.to);
      (neighbours[e.to] = neighbours[e.to] || []).push(e.from);
    });
    for (var ring = 0; ring <= maxRing; ring++) {
      var members = data.nodes.filter(function (n) { return n.distance === ring; });
      if (ring === 0) {
        members.forEach(function (n) { pos[n.id] = { x: cx, y: cy }; angle[n.id] = 0; });
        continue;
      }
      members.forEach(function (n) {
        var inner = (neighbours[n.id] || []).filter(function (m) { return m in angle; });
        if (!inner.length) { n._wanted = null; return; }
        var sx = 0; var sy = 0;
        inner.forEach(function (m) { sx += Math.cos(angle[m]); sy += Math.sin(angle[m]); });
        n._wanted = Math.atan2(sy, sx);
      });
      if (ring === 1) {
        members.sort(byName);
      } else {
        members.sort(function (a, b) {
          var wa = a._wanted === null ? 99 : a._wanted;
          var wb = b._wanted === null ? 99 : b._wanted;
          return wa - wb || byName(a, b);
        });
      }
      var start = ring === 1 || members[0]._wanted === null ? -Math.PI / 2 : members[0]._wanted;
      // Outer rings get a little twist so their nodes do not line up with the inner ones.
      start += ring > 1 && members.length > 1 ? Math.PI / members.length / 2 : 0;
      var radius = step * ring;
      members.forEach(function (n, i) {
        var a = start + (2 * Math.PI * i) / members.length;
        angle[n.id] = a;
        // An ellipse: the canvas is wider than it is high.
        pos[n.id] = { x: cx + radius * 1.45 * Math.cos(a), y: cy + radius * Math.sin(a) };
      });
    }
    return pos;
  }

  function draw(container) {
    var canvas = container.querySelector("[data-graph-canvas]");
    var source = container.querySelector("script[type='application/json']");
    if (!canvas || !source || canvas.dataset.drawn) return;
    var data = JSON.parse(source.textContent);
    var pos = layout(data);
    var svg = el("svg", {
      viewBox: "0 0 " + WIDTH + " " + HEIGHT,
      class: "bt-graph",
      role: "img",
      "aria-label": "Neighbourhood graph"
    });
    var defs = el("defs");
    var marker = el("marker", {
      id: "bt-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse"
    });
    marker.appendChild(el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "bt-arrow" }));
    defs.appendChild(marker);
    svg.appendChild(defs);

    // Parallel edges (the same two entities) bend apart so their labels stay readable.
    var pairs = {};
    data.edges.forEach(function (e) {
      var key = Math.min(e.from, e.to) + "-" + Math.max(e.from, e.to);
      (pairs[key] = pairs[key] || []).push(e);
    });
    var edgeLayer = el("g", { class: "bt-edges" });
    var labelLayer = el("g", { class: "bt-edge-labels" });
    Object.keys(pairs).forEach(function (key) {
      var group = pairs[key];
      group.forEach(function (e, i) {
        var a = pos[e.from]; var b = pos[e.to];
        if (!a || !b) return;
        var dx = b.x - a.x; var dy = b.y - a.y;
        var len = Math.sqrt(dx * dx + dy * dy) || 1;
        var bend = (i - (group.length - 1) / 2) * 34 * (e.from < e.to ? 1 : -1);
        var mx = (a.x + b.x) / 2 - (dy / len) * bend;
        var my = (a.y + b.y) / 2 + (dx / len) * bend;
        // End the edge at the target's rim, so the arrow shows.
        var r = (e.to === data.center ? RADIUS.centre : RADIUS.node) + 2;
        var tx = b.x - mx; var ty = b.y - my;
        var tl = Math.sqrt(tx * tx + ty * ty) || 1;
        var ex = b.x - (tx / tl) * r; var ey = b.y - (ty / tl) * r;
        edgeLayer.appendChild(el("path", {
          d: "M " + a.x + " " + a.y + " Q " + mx + " " + my + " " + ex + " " + ey,
          class: "bt-edge", "marker-end": "url(#bt-arrow)", "data-edge": e.id
        }));
        var lx = 0.25 * a.x + 0.5 * mx + 0.25 * b.x;
        var ly = 0.25 * a.y + 0.5 * my + 0.25 * b.y;
        labelLayer.appendChild(el("text", {
          x: lx, y: ly, class: "bt-edge-label", "text-anchor": "middle", dy: "0.35em"
        }, shorten(e.type, 22)));
      });
    });
    svg.appendChild(edgeLayer);
    svg.appendChild(labelLayer);

    var nodeLayer = el("g", { class: "bt-nodes" });
    data.nodes.forEach(function (n) {
      var p = pos[n.id];
      var centre = n.id === data.center;
      var g = el("g", {
        class: "bt-node " + typeClass(n.type) + (centre ? " is-centre" : ""),
        "data-node": n.id, tabindex: centre ? -1 : 0
      });
      g.appendChild(el("title", {}, n.name + " (" + n.type + ", distance " + n.distance + ")"));
      g.appendChild(el("circle", { cx: p.x, cy: p.y, r: centre ? RADIUS.centre : RADIUS.node }));
      g.appendChild(el("text", {
        x: p.x, y: p.y + (centre ? RADIUS.centre : RADIUS.node) + 13,
        "text-anchor": "middle", class: "bt-node-label"
      }, shorten(n.name, 26)));
      if (!centre) {
        var open = function () {
          if (window.htmx) {
            window.htmx.ajax("GET", n.url, { target: "#neighbourhood", swap: "innerHTML" });
          } else {
            window.location.href = n.page_url;
          }
        };
        g.addEventListener("click", open);
        g.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(); }
        });
      }
      nodeLayer.appendChild(g);
    });
    svg.appendChild(nodeLayer);
    canvas.appendChild(svg);
    canvas.dataset.drawn = "1";
    markSelected(data.center);
  }

  // The entity list on the left shows which entity is drawn.
  function markSelected(entityId) {
    document.querySelectorAll("#entity-list [data-entity-id]").forEach(function (link) {
      link.classList.toggle("is-selected", link.dataset.entityId === String(entityId));
    });
  }

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches("[data-graph]")) draw(scope);
    scope.querySelectorAll("[data-graph]").forEach(draw);
  }

  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest("[data-close-results]");
    if (!close) return;
    var panel = document.getElementById("search-results");
    if (!panel) return;
    event.preventDefault();
    panel.replaceChildren();
    panel.className = "bt-search-results";
    panel.hidden = true;
  });

  if (window.htmx) {
    window.htmx.onLoad(init);
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  }
})();
