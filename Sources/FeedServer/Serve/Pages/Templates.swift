/// The pages' Mustache templates. `{{name}}` escapes what it prints, and every value from the
/// store is printed that way; `{{{name}}}` only prints markup the server built itself: an SVG
/// chart of numbers, an entity's table rows (``TableBody``, which escapes every value) and the
/// words a search found in a card (``SearchQuery/highlighted(_:)``, which escapes the rest).
enum Templates {
    static let layout = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        {{#refresh}}<meta http-equiv="refresh" content="{{refresh}}">{{/refresh}}
        <title>{{title}} · Feedwork</title>
        <link rel="stylesheet" href="/assets/app.css">
        <script src="/assets/app.js" defer></script>
        </head><body>
        <header><a class="brand" href="/">Feedwork</a> <nav><a href="/">Feeds</a> <a href="/entities">Entities</a> <a href="/basket">Basket</a> <a href="/sql">SQL</a> <a href="/api/openapi.json">API</a></nav><span class="store">{{store}}</span></header>
        <main>
        <h1>{{title}}</h1>
        {{{content}}}
        </main></body></html>
        """

    static let overview = """
        {{#refreshing}}<p class="note" id="refreshing">A run is in progress: this page refreshes every 5 seconds.</p>{{/refreshing}}
        {{^feeds}}<p>No feed has run on this store yet: run <code>feedwork run</code>.</p>{{/feeds}}
        <table class="feeds" id="feeds"><thead><tr><th>feed</th><th>adapter</th><th>last run</th><th>status</th><th>new / updated / unchanged / deleted</th><th>recent runs (duration, rows)</th><th>rows</th><th>rejects</th><th>media</th></tr></thead><tbody>
        {{#feeds}}<tr class="feed" data-feed="{{feed}}">
        <td>{{#ran}}<a href="/feeds/{{feedPath}}">{{feed}}</a>{{/ran}}{{^ran}}{{feed}}{{/ran}}</td><td>{{adapter}}</td><td>{{time}}</td>
        <td><span class="status status-{{statusClass}}">{{status}}</span>{{#error}}<div class="error">{{error}}</div>{{/error}}{{#notes}}<div class="run-note">{{.}}</div>{{/notes}}</td>
        <td class="num">{{counts}}</td><td>{{{chart}}}</td>
        <td>{{#rows}}<a href="/entities/{{entityPath}}?feed={{feedQuery}}">{{entity}}</a> {{rows}}<br>{{/rows}}</td>
        <td class="num">{{#rejects}}<a href="/feeds/{{feedPath}}#rejects">{{rejects}}</a>{{/rejects}}{{^rejects}}0{{/rejects}}</td><td class="media">{{media}}</td></tr>
        {{/feeds}}</tbody></table>
        """

    static let feed = """
        <p>Adapter {{adapter}}.</p>
        <h2>Runs</h2>
        <figure id="runs-chart">{{{chart}}}</figure>
        <table id="runs"><thead><tr><th>run</th><th>status</th><th>started (UTC)</th><th>duration</th><th>new</th><th>updated</th><th>unchanged</th><th>deleted</th><th>rejected</th><th>requests</th><th>error and notes</th></tr></thead><tbody>
        {{#runs}}<tr><td>{{run}}</td><td><span class="status status-{{status}}">{{status}}</span></td><td>{{started}}</td><td class="num">{{duration}}</td><td class="num">{{inserted}}</td><td class="num">{{updated}}</td><td class="num">{{unchanged}}</td><td class="num">{{deleted}}</td><td class="num">{{rejected}}</td><td class="num">{{requests}}</td><td><div class="error">{{error}}</div>{{#notes}}<div class="run-note">{{.}}</div>{{/notes}}</td></tr>
        {{/runs}}</tbody></table>
        {{#older}}<p><a href="?before={{older}}" id="older-runs">Older runs</a></p>{{/older}}
        <h2 id="rejects">Rejects</h2>
        {{^rejects}}<p>None.</p>{{/rejects}}
        {{#rejects}}<article class="reject"><p><strong>{{reason}}</strong></p><p>Run {{run}}, entity {{entity}}, at <code>{{path}}</code>{{#url}}, from {{url}}{{/url}}{{#page}} (page {{page}}){{/page}}</p><pre>{{raw}}</pre></article>
        {{/rejects}}
        """

    static let entities = """
        <table id="entities"><thead><tr><th>entity</th><th>of</th><th>columns</th></tr></thead><tbody>
        {{#tables}}<tr><td><a href="/entities/{{path}}">{{name}}</a></td><td>{{parent}}</td><td>{{columns}}</td></tr>
        {{/tables}}</tbody></table>
        """

    static let entity = """
        <form class="filters" method="get" action="/entities/{{entityPath}}" id="filter-form">
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/hidden}}
        <label>Filter <select name="field" id="filter-field">{{#fieldNames}}<option value="{{.}}">{{.}}</option>{{/fieldNames}}</select></label>
        <select name="op" id="filter-op">{{#ops}}<option value="{{.}}">{{.}}</option>{{/ops}}</select>
        <input name="value" id="filter-value" placeholder="value"> <button type="submit">Add</button>
        {{#hasCards}}<input type="hidden" name="view" value="{{view}}">{{/hasCards}}
        </form>
        {{#searchable}}<form class="search" method="get" action="/entities/{{entityPath}}" id="search-form" role="search">
        {{#searchHidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/searchHidden}}
        <label>Search <input type="search" name="q" id="search-q" value="{{q}}" placeholder="words"></label> <button type="submit" id="search-button">Search</button>
        </form>{{/searchable}}
        <p class="conditions">{{#conditions}}<span class="condition" title="{{condition}}" data-condition="{{condition}}">{{text}} <a href="?{{remove}}" title="remove">×</a></span> {{/conditions}}
        {{#feeds}}<span class="condition">feed {{.}}</span> {{/feeds}}{{#sort}}<span class="condition">sorted by {{sort}}</span>{{/sort}}</p>
        <p class="views">{{#hasCards}}<a href="?{{tableQuery}}" id="table-view">Table</a> · <a href="?{{cardsQuery}}" id="cards-view">Cards</a> · {{/hasCards}}
        Download this view: <a class="download" id="download-csv" href="/api/entities/{{entityPath}}/export.csv?{{downloadQuery}}">CSV</a>
        <a class="download" id="download-ndjson" href="/api/entities/{{entityPath}}/export.ndjson?{{downloadQuery}}">NDJSON</a>
        <a class="download" id="download-json" href="/api/entities/{{entityPath}}/export.json?{{downloadQuery}}">JSON</a>
        {{#sqlQuery}}· <a id="open-in-sql" href="/sql?{{sqlQuery}}">Open in SQL</a>{{/sqlQuery}}
        <br><code class="command">{{command}}</code></p>
        <div id="facets" data-src="/api/entities/{{entityPath}}/facets?{{downloadQuery}}"></div>
        {{#cards}}<div class="cards" id="cards">{{#items}}<article class="card" data-key="{{key}}">
        {{#image}}<img src="{{image}}" alt="" loading="lazy">{{/image}}{{#placeholder}}<div class="placeholder" title="{{placeholder}}"><span>image not mirrored</span><small>{{placeholder}}</small></div>{{/placeholder}}
        {{#badges}}<span class="badge">{{.}}</span>{{/badges}}
        <h3><a href="{{record}}">{{{titleHTML}}}</a></h3>
        {{#snippets}}<p class="snippet">{{{.}}}</p>{{/snippets}}
        {{#money}}<p class="price">{{money}}</p>{{/money}}
        {{#details}}<p class="detail">{{.}}</p>{{/details}}
        {{#link}}<p><a class="buy" href="{{link}}" rel="noopener noreferrer">BUY</a></p>{{/link}}
        </article>{{/items}}</div>{{/cards}}
        {{^cards}}<table class="rows" id="rows"><thead><tr>{{#columns}}<th><a href="?{{sortQuery}}" class="sort" data-field="{{name}}">{{name}}{{arrow}}</a><span class="type">{{type}}</span></th>{{/columns}}<th></th></tr></thead><tbody>
        {{{rowsHTML}}}</tbody></table>{{/cards}}
        <p class="paging">{{#first}}<a href="?{{first}}" id="first-page">First page</a>{{/first}} {{#next}}<a href="?{{next}}" id="next-page">Next page</a>{{/next}}{{^next}}<span id="last-page">Last page</span>{{/next}}</p>
        """

    static let record = """
        {{#versions}}<h2>{{heading}}</h2><table class="record">{{#fields}}<tr><th>{{name}}</th><td>{{#json}}<pre>{{json}}</pre>{{/json}}{{^json}}{{text}}{{/json}}{{#image}}<br><img class="media" src="{{image}}" alt="">{{/image}}{{#placeholder}}<div class="placeholder"><span>image not mirrored</span></div>{{/placeholder}}</td></tr>{{/fields}}</table>{{/versions}}
        {{#children}}<h2>{{name}}</h2><table><thead><tr>{{#columns}}<th>{{.}}</th>{{/columns}}</tr></thead><tbody>{{#rows}}<tr>{{#cells}}<td>{{text}}{{#image}}<br><img class="media" src="{{image}}" alt="">{{/image}}{{#placeholder}}<div class="placeholder"><span>image not mirrored</span></div>{{/placeholder}}</td>{{/cells}}</tr>{{/rows}}</tbody></table>{{/children}}
        """

    static let basket = """
        <form method="get" action="/basket" id="basket-form"><table><thead><tr><th>good</th><th>unit</th><th>price ({{catalogCurrency}})</th><th>quantity</th></tr></thead><tbody>
        {{#goods}}<tr><td>{{name}}</td><td>{{unit}}</td><td class="num">{{price}}</td><td><input type="number" min="0" max="1000" name="{{name}}" value="{{quantity}}" id="quantity-{{name}}"></td></tr>{{/goods}}
        </tbody></table>
        <label>Currency <input name="currency" value="{{currency}}" size="4" maxlength="3" id="currency"></label> <button type="submit" id="price-button">Price</button></form>
        {{#problem}}<p class="error" id="price-problem">{{problem}}</p>{{/problem}}
        {{#priced}}<h2>In {{currency}}</h2>
        <p id="rate">1 {{rate.source}} = {{rate.rate}} {{rate.target}}{{#rate.as_of}}, as of {{rate.as_of}}{{/rate.as_of}}{{#rate.feed}} (feed {{rate.feed}}){{/rate.feed}}{{#rate.stale}} <span class="status status-stale" id="stale">stale: older than {{rate.max_age}}</span>{{/rate.stale}}</p>
        <table id="priced"><thead><tr><th>good</th><th>quantity</th><th>unit</th><th>unit price</th><th>amount ({{currency}})</th></tr></thead><tbody>
        {{#items}}<tr><td>{{good}}</td><td class="num">{{quantity}}</td><td>{{unit}}</td><td class="num">{{unit_price}}</td><td class="num">{{amount_rounded}}</td></tr>{{/items}}
        <tr class="total"><th colspan="4">total</th><td class="num" id="total">{{total}}</td></tr></tbody></table>
        <p>The total is the exact sum rounded once to the currency's minor unit ({{total_exact}} exactly).</p>{{/priced}}
        """

    static let error = """
        <p class="error" id="error">{{message}}</p><p><a href="/">Back to the feeds</a></p>
        """
}
