// Written by ltrain build: what the search field searches (see search.js).
self.ltrainSearchIndex = {"join": "#", "shards": ["search/1.js"], "checklists": [
["c","Was mitnehmen?","checklists/mitnehmen.html",["Fahrkarte (AB-Tarif)","Regenschirm","Wasserflasche"]]]};
