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
  var HEIGHT = 500;
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

  /* Centre + rings on ellipses that fill the canvas: ring 1 evenly spaced (by type, then
   * name); every further ring ordered by the mean angle of its neighbours on the ring
   * inside it, then evenly spaced at the rotation closest to those angles, so children
   * sit near their parents. */
  function layout(data) {
    var cx = WIDTH / 2;
    var cy = HEIGHT / 2;
    var maxRing = 0;
    data.nodes.forEach(function (n) { maxRing = Math.max(maxRing, n.distance); });
    // Each ring's share of the radius follows the number of entities inside it (a crowded
    // first ring and a sparse second one: the first moves out), within bounds.
    var inside = [0];
    for (var r = 1; r <= maxRing; r++) {
      var onRing = data.nodes.filter(function (n) { return n.distance === r; }).length;
      inside.push(inside[r - 1] + Math.max(onRing, 1));
    }
    var shares = inside.map(function (count, ring) {
      if (!ring) return 0;
      var lower = Math.max(1 - 0.45 * (maxRing - ring), (0.3 * ring) / maxRing);
      var upper = 1 - 0.35 * (maxRing - ring);
      return Math.min(upper, Math.max(lower, count / inside[maxRing]));
    });
    var rx = WIDTH / 2 - 85;
    var ry = HEIGHT / 2 - 45;
    var pos = {};
    var angle = {};
    var neighbours = {};
    data.edges.forEach(function (e) {
      (neighbours[e.from] = neighbours[e.from] || []).push(e.to);
      (neighbours[e.to] = neighbours[e.to] || []).push(e.from);
    });
    for (var ring = 0; ring <= maxRing; ring++) {
      var members = data.nodes.filter(function (n) { return n.distance === ring; });
      if (!members.length) continue;
      if (ring === 0) {
        members.forEach(function (n) { pos[n.id] = { x: cx, y: cy }; angle[n.id] = 0; });
        continue;
      }
      var count = members.length;
      var slot = (2 * Math.PI) / count;
      var start;
      if (ring === 1) {
        members.sort(byName);
        start = count === 1 ? 0 : -Math.PI / 2 + slot / 2;
      } else {
        members.forEach(function (n) {
          var sx = 0; var sy = 0;
          (neighbours[n.id] || []).forEach(function (m) {
            if (m in angle) { sx += Math.cos(angle[m]); sy += Math.sin(angle[m]); }
          });
          n._wanted = sx || sy ? Math.atan2(sy, sx) : 0;
        });
        members.sort(function (a, b) { return a._wanted - b._wanted || byName(a, b); });
        // The rotation of the evenly spaced slots closest to the wanted angles.
        var sx = 0; var sy = 0;
        members.forEach(function (n, i) {
          sx += Math.cos(n._wanted - slot * i); sy += Math.sin(n._wanted - slot * i);
        });
        start = Math.atan2(sy, sx);
      }
      members.forEach(function (n, i) {
        var a = start + slot * i;
        angle[n.id] = a;
        var share = shares[ring];
        pos[n.id] = { x: cx + rx * share * Math.cos(a), y: cy + ry * share * Math.sin(a) };
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
    // Crop the height to what is drawn (a chain of entities is a flat picture).
    var top = HEIGHT; var bottom = 0;
    Object.keys(pos).forEach(function (id) {
      top = Math.min(top, pos[id].y); bottom = Math.max(bottom, pos[id].y);
    });
    var height = Math.max(bottom - top + 90, 240);
    var y0 = (top + bottom) / 2 - height / 2 - 5;
    var svg = el("svg", {
      viewBox: "0 " + y0 + " " + WIDTH + " " + height,
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
        // Edges at the centre crowd there: their labels move out towards the other end.
        var t = e.from === data.center ? 0.62 : e.to === data.center ? 0.38 : 0.5;
        var lx = (1 - t) * (1 - t) * a.x + 2 * (1 - t) * t * mx + t * t * b.x;
        var ly = (1 - t) * (1 - t) * a.y + 2 * (1 - t) * t * my + t * t * b.y;
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
        "data-node": n.id
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
        // (Keyboards and screen readers use the table below, whose names recentre too.)
        g.addEventListener("click", open);
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
