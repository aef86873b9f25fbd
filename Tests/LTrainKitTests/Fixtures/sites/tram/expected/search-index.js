// Written by ltrain build: what the search field searches (see search.js).
self.ltrainSearchIndex = {"join": "#", "shards": ["search/1.js"], "checklists": [
["c","Pack One","checklists/pack-one.html",["Umbrella","Sunscreen"]],
["c","Pick a Seat","checklists/pick-a-seat.html",["Front, by the driver","Back, by the window","Standing"]]]};
