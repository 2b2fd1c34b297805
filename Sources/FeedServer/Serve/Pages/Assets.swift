/// The stylesheet and script of the pages, served from the binary (nothing is fetched from
/// elsewhere, so the pages work offline).
enum Assets {
    static let css = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
        header{background:#234;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center}
        header a{color:#fff;text-decoration:none;margin-right:12px}.brand{font-weight:bold}
        .store{margin-left:auto;opacity:.7;font-size:12px}
        main{padding:8px 16px}table{border-collapse:collapse;background:#fff;margin:8px 0}
        th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
        th .type{display:block;font-weight:normal;font-size:11px;color:#888}
        td.num,td.integer,td.real,td.decimal,td.money{text-align:right;font-variant-numeric:tabular-nums}
        td.null{color:#bbb}.error{color:#a00;white-space:pre-wrap}
        .status{padding:1px 5px;border-radius:3px;background:#ddd}.status-ok{background:#cfc}
        .status-failed,.status-interrupted{background:#fcc}.status-running{background:#ccf}
        .status-stale,.status-ok_with_rejects{background:#ffc}
        pre{background:#f4f4f4;padding:6px;max-width:60em;overflow:auto}
        .cards{display:flex;flex-wrap:wrap;gap:12px}.card{background:#fff;border:1px solid #ddd;width:220px;padding:8px}
        .card img{width:100%;height:140px;object-fit:cover;background:#eee}
        .placeholder{height:140px;background:#eee;color:#666;display:flex;flex-direction:column;justify-content:center;align-items:center;text-align:center;font-size:12px;overflow:hidden}
        .placeholder small{word-break:break-all;padding:0 6px;font-size:10px}img.media{max-width:320px;max-height:240px}.badge{background:#c00;color:#fff;padding:1px 6px;font-size:11px;font-weight:bold}
        .card h3{font-size:15px;margin:6px 0}.price{font-weight:bold}.buy{background:#2a6;color:#fff;padding:3px 10px;text-decoration:none}
        .condition{background:#eef;padding:2px 6px;border-radius:3px}.facet{display:inline-block;vertical-align:top;margin-right:24px}
        .command{font-size:12px;color:#555}.note{background:#ffd;padding:4px 8px}.run-note{color:#665;font-size:12px;overflow-wrap:anywhere}
        """

    static let javascript = """
        "use strict";
        // Facet counts load after the page, so a large table's page is not held up by them.
        document.addEventListener("DOMContentLoaded", function () {
          var box = document.getElementById("facets");
          if (!box) return;
          fetch(box.dataset.src, {credentials: "same-origin"}).then(function (response) {
            return response.ok ? response.json() : {facets: []};
          }).then(function (answer) {
            answer.facets.forEach(function (facet) {
              var block = document.createElement("div");
              block.className = "facet";
              block.dataset.field = facet.field;
              var title = document.createElement("strong");
              title.textContent = facet.field + (facet.sampled ? " (first rows)" : "");
              block.appendChild(title);
              facet.counts.forEach(function (count) {
                var line = document.createElement("div");
                var link = document.createElement("a");
                var value = count.value === null ? "" : count.value;
                var params = new URLSearchParams(window.location.search);
                params.delete("after");
                params.append("where", facet.field + "=" + value);
                link.href = "?" + params.toString();
                link.className = "facet-value";
                link.textContent = (count.label || value || "(none)");
                line.appendChild(link);
                line.appendChild(document.createTextNode(" " + count.rows));
                block.appendChild(line);
              });
              box.appendChild(block);
            });
          }).catch(function () {});
        });
        """
}
