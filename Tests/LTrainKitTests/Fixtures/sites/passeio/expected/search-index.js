// Written by ltrain build: what the search field searches (see search.js).
self.ltrainSearchIndex = {"join": "#", "shards": ["search/1.js"], "checklists": [
["c","O que levar","checklists/o-que-levar.html",["Água","Chapéu","Sapatos confortáveis","Protetor solar"]],
["c","Onde almoçar","checklists/onde-almocar.html",["Tasca do Chico","Pastelaria","Piquenique no miradouro"]]]};
