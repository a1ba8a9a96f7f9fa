// Filters the records table (and fades the other nodes of the graph). The page reads the same
// without it: nothing here draws or loads anything.
(function () {
  "use strict";
  var input = document.getElementById("filter");
  if (!input) { return; }
  input.hidden = false;
  input.previousElementSibling.hidden = false;
  var rows = Array.prototype.slice.call(document.querySelectorAll("#records tbody tr"));
  var nodes = Array.prototype.slice.call(document.querySelectorAll("#graph .node"));
  input.addEventListener("input", function () {
    var q = input.value.trim().toLowerCase();
    var shown = {};
    rows.forEach(function (row) {
      var hit = q === "" || row.textContent.toLowerCase().indexOf(q) !== -1;
      row.hidden = !hit;
      if (hit) { shown[row.getAttribute("data-id")] = true; }
    });
    nodes.forEach(function (node) {
      var on = q === "" || shown[node.getAttribute("data-id")] === true;
      node.classList.toggle("faded", !on);
    });
  });
})();
