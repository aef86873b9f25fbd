// Written by ltrain build: stations 1-4 of the search index (see search.js).
(self.ltrainSearchShards = self.ltrainSearchShards || {})["search/1.js"] = [
["s","הר הרצל","stations/har-herzl.html","תחילת הקו."],
["s","התחנה המרכזית","stations/central-station.html","אוטובוסים ורכבת לתל אביב."],
["s","יפו מרכז","stations/jaffa-center.html","שוק מחנה יהודה."],
["s","העירייה","stations/city-hall.html","כיכר ספרא."],
["i","הר הרצל","info/har-herzl.html",[["איך מגיעים","section","התחנה הראשונה בקו האדום, ליד יד ושם."]]],
["i","התחנה המרכזית","info/central-station.html",[["מעבר לרכבת","section","המעלית לרכבת הישראלית נמצאת מול היציאה הצפונית. מחיר: 5.50 ₪ (Rav-Kav)."]]],
["i","יפו מרכז","info/jaffa-center.html",[["השוק","section","בימי שישי השוק עמוס מאוד; הגיעו לפני 10:00. שימו לב: הרכבת לא פועלת בשבת."]]],
["i","העירייה","info/city-hall.html",[["בקרבת מקום","section","כיכר ספרא שער יפו, עשר דקות ברגל"]]]
];
