// Written by ltrain build: what the search field searches (see search.js).
self.ltrainSearchIndex = {"join": "#", "shards": ["search/1.js"], "checklists": [
["c","מה להביא","checklists/what-to-bring.html",["רב-קו טעון","בקבוק מים","כובע"]]]};
