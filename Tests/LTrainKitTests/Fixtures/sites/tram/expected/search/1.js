// Written by ltrain build: stations 1-3 of the search index (see search.js).
(self.ltrainSearchShards = self.ltrainSearchShards || {})["search/1.js"] = [
["s","Martim Moniz","stations/martim-moniz.html",""],
["s","Graça","stations/graca.html","Up the hill, with a view."],
["s","Estrela & Basílica \u003cTop>","stations/estrela.html","Quotes \"double\" and 'single' survive."],
["i","Martim Moniz","info/martim-moniz.html",[["","","The square at the bottom of the hill. Route map"]]],
["i","Graça","info/graca.html",[["Miradouro","miradouro","Next comes Estrela, far to the west."]]],
["i","Estrela & Basílica \u003cTop>","info/estrela.html",[["","","Under 東京 and Ελλάδα the tram does not run, but their names render."]]]
];
