// Written by ltrain build: what the search field searches (see search.js).
self.ltrainSearchIndex = {"join": "#", "pages": [
["s","Martim Moniz","stations/martim-moniz.html",""],
["s","Graça","stations/graca.html","Up the hill, with a view."],
["s","Estrela & Basílica \u003cTop>","stations/estrela.html","Quotes \"double\" and 'single' survive."],
["i","Martim Moniz","info/martim-moniz.html",[["","","The square at the bottom of the hill. Route map"]]],
["i","Graça","info/graca.html",[["Miradouro","miradouro","Next comes Estrela, far to the west."]]],
["i","Estrela & Basílica \u003cTop>","info/estrela.html",[["","","Under 東京 and Ελλάδα the tram does not run, but their names render."]]],
["c","Pack One","checklists/pack-one.html",["Umbrella","Sunscreen"]],
["c","Pick a Seat","checklists/pick-a-seat.html",["Front, by the driver","Back, by the window","Standing"]]
]};
